package settings

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/execlua/execlua/internal/editdist"
)

// knownKeys are the top-level keys of a settings file that draw no
// warning: execlua's own, and the other keys Claude Code's settings
// reference documents, which execlua reads past (a user's file carries
// many of them).
var knownKeys = []string{
	// read by execlua
	"permissions", "hooks", "enableExec", "nonDeferredTools", "mcpServers",
	"enabledMcpjsonServers", "disabledMcpjsonServers",
	// Claude Code's, not used by execlua
	"$schema", "agent", "allowManagedHooksOnly", "allowManagedMcpServersOnly",
	"allowManagedPermissionRulesOnly", "allowedHttpHookUrls", "allowedMcpServers",
	"alwaysThinkingEnabled", "apiKeyHelper", "attribution", "autoCompactEnabled",
	"autoMemoryEnabled", "autoUpdates", "autoUpdatesChannel", "availableModels",
	"awsAuthRefresh", "awsCredentialExport", "claudeMdExcludes", "cleanupPeriodDays",
	"companyAnnouncements", "deniedMcpServers", "disableAllHooks", "disableAutoMode",
	"editorMode", "effortLevel", "enableAllProjectMcpServers", "enabledPlugins", "env",
	"extraKnownMarketplaces", "feedbackSurveyRate", "fileSuggestion", "forceLoginMethod",
	"forceLoginOrgUUID", "httpHookAllowedEnvVars", "includeCoAuthoredBy",
	"includeGitInstructions", "language", "model", "otelHeadersHelper", "outputStyle",
	"plansDirectory", "prefersReducedMotion", "preferredNotifChannel", "respectGitignore",
	"sandbox", "showTurnDuration", "skipDangerousModePermissionPrompt", "skipWebFetchPreflight",
	"spinnerTipsEnabled", "spinnerTipsOverride",
	"spinnerVerbs", "statusLine", "strictKnownMarketplaces", "teammateMode",
	"terminalProgressBarEnabled", "theme", "verbose",
}

// knownPermissionKeys are the keys of "permissions" that draw no warning.
var knownPermissionKeys = []string{"allow", "ask", "deny", "defaultMode", "additionalDirectories", "disableBypassPermissionsMode", "disableAutoMode"}

// knownHookEvents are the hook events of Claude Code's hooks reference;
// execlua runs the four a tool call raises and reads past the others.
var knownHookEvents = []string{"PreToolUse", "PermissionRequest", "PostToolUse", "PostToolUseFailure",
	"PermissionDenied", "Notification", "UserPromptSubmit", "Stop", "StopFailure", "SubagentStart",
	"SubagentStop", "PreCompact", "PostCompact", "SessionStart", "SessionEnd", "Setup", "TeammateIdle",
	"TaskCreated", "TaskCompleted", "ConfigChange", "WorktreeCreate", "WorktreeRemove",
	"InstructionsLoaded", "Elicitation", "ElicitationResult", "CwdChanged", "FileChanged"}

// knownMatcherKeys are the keys of one entry of a hook event's list.
var knownMatcherKeys = []string{"matcher", "hooks"}

// knownHookKeys are the keys of one hook entry that draw no warning.
var knownHookKeys = []string{"type", "command", "url", "headers", "allowedEnvVars", "timeout", "onFailure",
	"async", "asyncRewake", "statusMessage", "once", "shell", "prompt", "model", "if"}

// UnknownKeyError is a key of a settings file that no known key matches:
// most often a misspelling ("permisions"), which would otherwise leave the
// key's rules out without a word.
type UnknownKeyError struct {
	Path string
	// Key is the key's path in the file: "permisions", "permissions.alow".
	Key string
	// Nearest is the known key it most resembles, "" when none is close.
	Nearest string
}

func (e *UnknownKeyError) Error() string {
	if e.Nearest != "" {
		return fmt.Sprintf("%s: unknown key %q is ignored; did you mean %q?", e.Path, e.Key, e.Nearest)
	}
	return fmt.Sprintf("%s: unknown key %q is ignored (it is neither an execlua nor a Claude Code settings key)", e.Path, e.Key)
}

// UnknownKeys lists the keys of a settings file that are neither
// execlua's nor Claude Code's: at the top level, in "permissions", and in
// "hooks" (event names, their entries, each hook). data must parse (see Parse); what does not is no key.
func UnknownKeys(path string, data []byte) []error {
	var top map[string]json.RawMessage
	if json.Unmarshal(data, &top) != nil {
		return nil
	}
	errs := unknownIn(path, "", top, knownKeys)
	var perms map[string]json.RawMessage
	if json.Unmarshal(top["permissions"], &perms) == nil {
		errs = append(errs, unknownIn(path, "permissions.", perms, knownPermissionKeys)...)
	}
	return append(errs, unknownHookKeys(path, top["hooks"])...)
}

// unknownHookKeys checks a "hooks" object: its events, their entries and
// each hook.
func unknownHookKeys(path string, raw json.RawMessage) []error {
	var hooks map[string][]map[string]json.RawMessage
	if json.Unmarshal(raw, &hooks) != nil {
		return nil
	}
	events := make(map[string]json.RawMessage, len(hooks))
	for e := range hooks {
		events[e] = nil
	}
	errs := unknownIn(path, "hooks.", events, knownHookEvents)
	for _, event := range sortedKeys(hooks) {
		for i, entry := range hooks[event] {
			at := fmt.Sprintf("hooks.%s[%d].", event, i)
			errs = append(errs, unknownIn(path, at, entry, knownMatcherKeys)...)
			var list []map[string]json.RawMessage
			if json.Unmarshal(entry["hooks"], &list) != nil {
				continue
			}
			for j, h := range list {
				errs = append(errs, unknownIn(path, fmt.Sprintf("%shooks[%d].", at, j), h, knownHookKeys)...)
			}
		}
	}
	return errs
}

func unknownIn(path, prefix string, obj map[string]json.RawMessage, known []string) []error {
	var errs []error
	for _, k := range sortedKeys(obj) {
		if !slices.Contains(known, k) {
			errs = append(errs, &UnknownKeyError{Path: path, Key: prefix + k, Nearest: nearest(k, known)})
		}
	}
	return errs
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// nearest is the known key within a few edits of key (a third of its
// length, at least 2), "" when none is.
func nearest(key string, known []string) string {
	best, bestDist := "", max(2, len(key)/3)+1
	for _, k := range known {
		if d := editdist.Levenshtein(key, k); d < bestDist {
			best, bestDist = k, d
		}
	}
	return best
}
