package preset

import (
	"encoding/json"

	"github.com/execlua/execlua/pool"
)

// Tool is a tool descriptor, execlua.Tool.
type Tool = pool.Tool

// Exempt returns the builtins a coding agent calls every turn, which it
// never defers whatever they ask: Read, Write, Edit, Glob, Grep, Bash.
// Wrapping each such call in a script would cost more than their schemas
// save. Each call returns a fresh slice.
func Exempt() []string { return []string{"Read", "Write", "Edit", "Glob", "Grep", "Bash"} }

// Builtins returns descriptors for the builtins a coding-agent host
// declares, modelled on Claude Code's: the core loop (Read, Write, Edit,
// Glob, Grep, Bash), which Exempt keeps flat, and the low-frequency or
// large-schema tools that ask to be deferred (web access, scheduling, plan
// mode, worktrees, task tracking, LSP). Their schemas would sit in every
// request's prefix while most turns never call them; in the pool they cost
// one name in the announcement.
//
// The descriptors carry no OutputSchema: what a builtin returns to a script
// is the host's implementation, and a signature must not promise a shape the
// host does not produce. Each call returns fresh values.
func Builtins() []Tool {
	core := []Tool{
		{
			Name:        "Read",
			Description: "Reads a file from the local filesystem. The file_path must be absolute. By default up to 2000 lines are read from the start of the file; pass offset and limit for long files. Lines are returned with line numbers. Images and PDFs are returned as attachments.",
			InputSchema: schema(`{"type":"object","properties":{"file_path":{"type":"string","description":"The absolute path to the file to read"},"offset":{"type":"integer","minimum":1,"description":"The line number to start reading from. Only provide if the file is too large to read at once"},"limit":{"type":"integer","minimum":1,"description":"The number of lines to read. Only provide if the file is too large to read at once"}},"required":["file_path"],"additionalProperties":false}`),
		},
		{
			Name:        "Write",
			Description: "Writes a file to the local filesystem, overwriting it if it exists. Read an existing file first. Prefer Edit for changes to existing files.",
			InputSchema: schema(`{"type":"object","properties":{"file_path":{"type":"string","description":"The absolute path to the file to write (must be absolute, not relative)"},"content":{"type":"string","description":"The content to write to the file"}},"required":["file_path","content"],"additionalProperties":false}`),
		},
		{
			Name:        "Edit",
			Description: "Performs an exact string replacement in a file. The edit fails if old_string is not unique in the file unless replace_all is set. The file must have been read in this conversation.",
			InputSchema: schema(`{"type":"object","properties":{"file_path":{"type":"string","description":"The absolute path to the file to modify"},"old_string":{"type":"string","description":"The text to replace"},"new_string":{"type":"string","description":"The text to replace it with (must be different from old_string)"},"replace_all":{"type":"boolean","default":false,"description":"Replace all occurrences of old_string"}},"required":["file_path","old_string","new_string"],"additionalProperties":false}`),
		},
		{
			Name:        "Glob",
			Description: "Fast file pattern matching that works with any codebase size. Supports glob patterns like \"**/*.js\" or \"src/**/*.ts\". Returns matching file paths sorted by modification time.",
			InputSchema: schema(`{"type":"object","properties":{"pattern":{"type":"string","description":"The glob pattern to match files against"},"path":{"type":"string","description":"The directory to search in. Defaults to the current working directory."}},"required":["pattern"],"additionalProperties":false}`),
		},
		{
			Name:        "Grep",
			Description: "A search tool built on ripgrep. Supports full regex syntax, filtering by glob or file type, and three output modes: matching lines, matching file paths, or match counts.",
			InputSchema: schema(`{"type":"object","properties":{"pattern":{"type":"string","description":"The regular expression pattern to search for in file contents"},"path":{"type":"string","description":"File or directory to search in. Defaults to the current working directory."},"glob":{"type":"string","description":"Glob pattern to filter files (e.g. \"*.js\", \"*.{ts,tsx}\")"},"type":{"type":"string","description":"File type to search (rg --type), e.g. js, py, rust, go"},"output_mode":{"type":"string","enum":["content","files_with_matches","count"],"default":"files_with_matches","description":"Output mode: matching lines, file paths, or match counts"},"-i":{"type":"boolean","description":"Case insensitive search"},"-n":{"type":"boolean","description":"Show line numbers in output (content mode only)"},"-A":{"type":"integer","minimum":0,"description":"Number of lines to show after each match (content mode only)"},"-B":{"type":"integer","minimum":0,"description":"Number of lines to show before each match (content mode only)"},"-C":{"type":"integer","minimum":0,"description":"Number of lines to show before and after each match (content mode only)"},"head_limit":{"type":"integer","minimum":1,"description":"Limit output to the first N lines or entries"},"multiline":{"type":"boolean","default":false,"description":"Enable multiline mode where . matches newlines and patterns can span lines"}},"required":["pattern"],"additionalProperties":false}`),
		},
		{
			Name:        "Bash",
			Description: "Executes a bash command in a persistent shell session with an optional timeout. Use it for terminal operations such as git, builds and tests, not for reading or editing files (use Read and Edit).",
			InputSchema: schema(`{"type":"object","properties":{"command":{"type":"string","description":"The command to execute"},"timeout":{"type":"integer","minimum":1,"maximum":600000,"description":"Optional timeout in milliseconds (max 600000)"},"description":{"type":"string","description":"Clear, concise description of what this command does in 5-10 words"},"run_in_background":{"type":"boolean","description":"Run the command in the background and read its output later"}},"required":["command"],"additionalProperties":false}`),
		},
	}
	deferred := []Tool{
		{
			Name:        "WebFetch",
			Description: "Fetches content from a URL and processes it with a prompt. Converts HTML to markdown, then answers the prompt about the page with a small, fast model. Read-only; results may be cached for 15 minutes. HTTP URLs are upgraded to HTTPS.",
			InputSchema: schema(`{"type":"object","properties":{"url":{"type":"string","format":"uri","description":"The URL to fetch content from"},"prompt":{"type":"string","description":"The prompt to run on the fetched content"}},"required":["url","prompt"],"additionalProperties":false}`),
			SearchHint:  "fetch a web page or URL, read online documentation",
		},
		{
			Name:        "WebSearch",
			Description: "Searches the web and returns result blocks with titles and URLs. Use it for information beyond the model's knowledge cutoff, such as recent events or current library versions.",
			InputSchema: schema(`{"type":"object","properties":{"query":{"type":"string","minLength":2,"description":"The search query to use"},"allowed_domains":{"type":"array","items":{"type":"string"},"description":"Only include search results from these domains"},"blocked_domains":{"type":"array","items":{"type":"string"},"description":"Never include search results from these domains"}},"required":["query"],"additionalProperties":false}`),
			SearchHint:  "search the internet, look up current information online",
		},
		{
			Name:        "CronCreate",
			Description: "Schedules a prompt to run later in this session, once or on a recurring cron schedule. The schedule is a standard 5-field cron expression in local time (minute hour day-of-month month day-of-week).",
			InputSchema: schema(`{"type":"object","properties":{"cron":{"type":"string","description":"Standard 5-field cron expression in local time, e.g. \"*/5 * * * *\" for every five minutes"},"prompt":{"type":"string","description":"The prompt to run at each scheduled time"},"recurring":{"type":"boolean","default":true,"description":"true: fire on every match of the schedule; false: fire once at the next match, then delete the job"}},"required":["cron","prompt"],"additionalProperties":false}`),
			SearchHint:  "schedule a recurring or delayed job, remind me later, run periodically",
		},
		{
			Name:        "CronList",
			Description: "Lists the scheduled jobs of this session with their ids, schedules and prompts.",
			InputSchema: schema(`{"type":"object","properties":{},"additionalProperties":false}`),
			SearchHint:  "list scheduled jobs",
		},
		{
			Name:        "CronDelete",
			Description: "Cancels a scheduled job by the id CronCreate returned.",
			InputSchema: schema(`{"type":"object","properties":{"id":{"type":"string","description":"Job ID returned by CronCreate"}},"required":["id"],"additionalProperties":false}`),
			SearchHint:  "cancel or remove a scheduled job",
		},
		{
			Name:        "EnterPlanMode",
			Description: "Switches to plan mode for a non-trivial implementation task: explore the codebase and design an approach for the user to approve before writing any code. No files are changed in plan mode.",
			InputSchema: schema(`{"type":"object","properties":{},"additionalProperties":false}`),
			SearchHint:  "plan before coding, design an implementation approach for approval",
		},
		{
			Name:        "ExitPlanMode",
			Description: "Presents the finished plan to the user for approval and leaves plan mode. Use it only when the task needs code to be written, not for research. The plan should be concise markdown covering the changes to make and how to verify them.",
			InputSchema: schema(`{"type":"object","properties":{"plan":{"type":"string","description":"The plan to run by the user for approval, in markdown. Be concise but complete: the files to change, the approach, and how the result will be verified."}},"required":["plan"],"additionalProperties":false}`),
			SearchHint:  "submit the plan for approval, start implementing",
		},
		{
			Name:        "EnterWorktree",
			Description: "Creates an isolated git worktree on a new branch and switches the session into it, so that changes do not touch the user's working copy.",
			InputSchema: schema(`{"type":"object","properties":{"name":{"type":"string","pattern":"^[A-Za-z0-9._-]+$","description":"Optional name for the worktree and its branch. A random name is generated if not provided."}},"additionalProperties":false}`),
			SearchHint:  "work in an isolated git worktree or separate branch",
		},
		{
			Name:        "ExitWorktree",
			Description: "Leaves the worktree created by EnterWorktree and returns the session to the original working directory, keeping or removing the worktree.",
			InputSchema: schema(`{"type":"object","properties":{"action":{"type":"string","enum":["keep","remove"],"description":"keep: leave the worktree and its branch on disk; remove: delete both"},"discard_changes":{"type":"boolean","default":false,"description":"With action \"remove\": delete even if the worktree has uncommitted changes"}},"required":["action"],"additionalProperties":false}`),
			SearchHint:  "leave the git worktree, go back to the main checkout",
		},
		{
			Name:        "TaskCreate",
			Description: "Creates a task in the session's task list to track progress on multi-step work. New tasks start as pending. Use it for complex tasks with three or more steps or when the user gives a list of things to do.",
			InputSchema: schema(`{"type":"object","properties":{"subject":{"type":"string","description":"A brief title for the task, in the imperative (\"Run the tests\")"},"description":{"type":"string","description":"What needs to be done, in enough detail to pick the task up later"},"activeForm":{"type":"string","description":"Present continuous form shown while the task is in progress (\"Running the tests\")"},"metadata":{"type":"object","additionalProperties":true,"description":"Arbitrary metadata to attach to the task"}},"required":["subject","description"],"additionalProperties":false}`),
			SearchHint:  "track a todo item, plan multi-step work",
		},
		{
			Name:        "TaskGet",
			Description: "Returns one task from the task list with its full description, status and dependencies.",
			InputSchema: schema(`{"type":"object","properties":{"taskId":{"type":"string","description":"The ID of the task to retrieve"}},"required":["taskId"],"additionalProperties":false}`),
			SearchHint:  "show a todo item",
		},
		{
			Name:        "TaskList",
			Description: "Lists all tasks in the task list with their ids, subjects, statuses, owners and blockers.",
			InputSchema: schema(`{"type":"object","properties":{},"additionalProperties":false}`),
			SearchHint:  "show the todo list, what is left to do",
		},
		{
			Name:        "TaskUpdate",
			Description: "Updates a task: its status (pending, in_progress, completed), subject, description, owner or dependencies, or deletes it. Mark a task in_progress before starting it and completed as soon as it is done.",
			InputSchema: schema(`{"type":"object","properties":{"taskId":{"type":"string","description":"The ID of the task to update"},"status":{"type":"string","enum":["pending","in_progress","completed","deleted"],"description":"New status for the task; deleted removes it"},"subject":{"type":"string","description":"New subject for the task"},"description":{"type":"string","description":"New description for the task"},"activeForm":{"type":"string","description":"Present continuous form shown while in progress"},"owner":{"type":"string","description":"New owner for the task (an agent name)"},"addBlocks":{"type":"array","items":{"type":"string"},"description":"Task IDs that cannot start until this one is completed"},"addBlockedBy":{"type":"array","items":{"type":"string"},"description":"Task IDs that must be completed before this one can start"},"metadata":{"type":"object","additionalProperties":true,"description":"Metadata keys to merge into the task; a null value deletes the key"}},"required":["taskId"],"additionalProperties":false}`),
			SearchHint:  "mark a todo item done, change task status",
		},
		{
			Name:        "LSP",
			Description: "Queries the language server for code intelligence: go to definition, find references, hover documentation, document and workspace symbols, implementations, and call hierarchy. Positions are 1-based, as shown in editors.",
			InputSchema: schema(`{"type":"object","properties":{"operation":{"type":"string","enum":["goToDefinition","findReferences","hover","documentSymbol","workspaceSymbol","goToImplementation","prepareCallHierarchy","incomingCalls","outgoingCalls"],"description":"The LSP operation to perform"},"filePath":{"type":"string","description":"The absolute or relative path to the file"},"line":{"type":"integer","minimum":1,"description":"The line number (1-based, as shown in editors)"},"character":{"type":"integer","minimum":1,"description":"The character offset (1-based, as shown in editors)"}},"required":["operation","filePath","line","character"],"additionalProperties":false}`),
			SearchHint:  "go to definition, find references or symbols, code navigation",
		},
	}
	for i := range deferred {
		deferred[i].ShouldDefer = true
	}
	return append(core, deferred...)
}

// schema turns a literal into fresh bytes, so that a caller editing one
// descriptor's schema cannot change the next call's.
func schema(s string) json.RawMessage { return json.RawMessage(s) }
