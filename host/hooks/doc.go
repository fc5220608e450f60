// Package hooks runs the PreToolUse and PostToolUse command hooks of the
// settings layers, as coding agents define them.
//
// The model. A hook is a shell command (sh -c) listed under an event and a
// matcher, a regular expression that must match the whole leaf tool name
// ("" and "*" match every tool). For every matching hook the command runs
// with the call as JSON on its stdin:
//
//	{"session_id": "...", "cwd": "...", "hook_event_name": "PreToolUse",
//	 "tool_name": "mcp__srv__get", "tool_input": {...},
//	 "tool_response": {...}}   // PostToolUse only
//
// and CLAUDE_PROJECT_DIR set to the host's working directory. Matching
// hooks run in parallel; each has its own timeout (the hook's "timeout" in
// seconds, 60 by default). What a hook says:
//
//   - exit 0: the call goes on. A JSON object on stdout may decide instead:
//     "decision": "block" or hookSpecificOutput.permissionDecision "deny"
//     blocks with its "reason" (or permissionDecisionReason);
//     permissionDecision "ask" makes the host ask the user; "continue":
//     false blocks with its stopReason; a PreToolUse hook's
//     hookSpecificOutput.updatedInput (an object) replaces the call's
//     input for everything after it (the first hook in listed order
//     wins), and the host applies its deny rules to it again.
//   - exit 2: PreToolUse blocks the call, and the script (or the model)
//     reads "PreToolUse:<tool> hook error: <stderr>" (HOOK-2). PostToolUse
//     cannot undo the call; it yields the isMeta message
//     "PostToolUse:<tool> hook blocking error from command: "<command>":
//     <stderr>" and the call's result stands (HOOK-3).
//   - any other exit, a timeout, or a command that cannot start: the call
//     goes on (fail-open, HOOK-5) and the failure is reported.
//
// The same Runner serves flat and nested calls: the host calls it from its
// one funnel, so a hook cannot tell the two apart (HOOK-7).
package hooks
