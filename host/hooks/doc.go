// Package hooks runs the tool-call hooks of the settings layers as Claude
// Code's hooks reference documents them, so that a user's existing hooks
// apply unchanged to the calls a script makes (docs/hooks.md lists where
// they still differ).
//
// The model. A call raises up to four events: PreToolUse before anything
// else, PermissionRequest when the user is about to be asked, then
// PostToolUse after a call that succeeded or PostToolUseFailure after one
// that failed. A hook is listed under an event and a matcher: "" or "*"
// match every tool, a matcher of letters, digits, _ and | names tools
// exactly (Bash, Edit|Write), anything else is a regular expression
// searched in the tool name (mcp__memory__.*). A hook is a command, run
// through sh -c in the host's directory with CLAUDE_PROJECT_DIR set, or
// an HTTP endpoint (type "http") the same input is POSTed to, with
// headers whose $VAR and ${VAR} are expanded when allowedEnvVars names
// them. Its input is one JSON object, keys in the documented order:
//
//	{"session_id": "...", "transcript_path": "...", "cwd": "...",
//	 "permission_mode": "default", "hook_event_name": "PreToolUse",
//	 "tool_name": "mcp__srv__get", "tool_input": {...},
//	 "tool_response": {...},          // PostToolUse
//	 "tool_use_id": "toolu_...",
//	 "error": "...", "is_interrupt": false}  // PostToolUseFailure
//
// Matching hooks run in parallel; each has its own timeout (its "timeout"
// in seconds, 600 by default). What a hook says:
//
//   - exit 0 (an HTTP hook: a 2xx answer): a JSON object on stdout (the
//     body) may decide. PreToolUse: hookSpecificOutput.permissionDecision
//     "allow", "ask" or "deny" with permissionDecisionReason, and
//     updatedInput to replace the call's input, additionalContext for the
//     model; "decision": "block" with
//     "reason" and "continue": false with "stopReason" deny too. Of
//     several hooks, deny beats ask beats allow. PermissionRequest:
//     hookSpecificOutput.decision.behavior "allow" (with updatedInput)
//     or "deny" (with message) answers for the user. PostToolUse and
//     PostToolUseFailure: additionalContext, and "decision": "block"
//     with a reason for the model.
//   - exit 2: PreToolUse and PermissionRequest deny the call, and the
//     script (or the model) reads "PreToolUse:<tool> hook error:
//     <stderr>" (HOOK-2). After the call it cannot be undone; the model
//     gets the isMeta message "PostToolUse:<tool> hook blocking error
//     from command: "<command>": <stderr>" (HOOK-3).
//   - any other exit, a timeout, a command that cannot start, an HTTP
//     answer other than 2xx: a non-blocking error. The call goes on and
//     Options.OnFailure is told (HOOK-5); a hook with "onFailure":
//     "block" refuses the call instead (fail closed).
//
// How a decision combines with the permission rules is the host's: see
// package host. The same Runner serves flat and nested calls, so a hook
// cannot tell the two apart (HOOK-7).
package hooks
