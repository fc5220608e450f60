---@class mcp__filesystem__read_text_file.Args
---@field path string
---@field tail? number If provided, returns only the last N lines of the file
---@field head? number If provided, returns only the first N lines of the file

---@param args mcp__filesystem__read_text_file.Args
---@return any
function tools.mcp__filesystem__read_text_file(args) end

---@class mcp__filesystem__read_multiple_files.Args
---@field paths string[] Array of file paths to read. Each path must be a string pointing to a valid file within allowed directories. (minItems: 1)

---@param args mcp__filesystem__read_multiple_files.Args
---@return any
function tools.mcp__filesystem__read_multiple_files(args) end

---@param args { path: string, content: string }
---@return any
function tools.mcp__filesystem__write_file(args) end

---@class mcp__filesystem__edit_file.Args
---@field path string
---@field edits mcp__filesystem__edit_file.Args.edits[]
---@field dryRun? boolean Preview changes using git-style diff format (default: false)

---@class mcp__filesystem__edit_file.Args.edits
---@field oldText string Text to search for - must match exactly
---@field newText string Text to replace with

---@param args mcp__filesystem__edit_file.Args
---@return any
function tools.mcp__filesystem__edit_file(args) end

---@class mcp__filesystem__list_directory_with_sizes.Args
---@field path string
---@field sortBy? "name"|"size" Sort entries by name or size (default: "name")

---@param args mcp__filesystem__list_directory_with_sizes.Args
---@return any
function tools.mcp__filesystem__list_directory_with_sizes(args) end

---@class mcp__filesystem__directory_tree.Args
---@field path string
---@field excludePatterns? string[] (default: [])

---@param args mcp__filesystem__directory_tree.Args
---@return any
function tools.mcp__filesystem__directory_tree(args) end

---@class mcp__filesystem__search_files.Args
---@field path string
---@field pattern string
---@field excludePatterns? string[] (default: [])

---@param args mcp__filesystem__search_files.Args
---@return any
function tools.mcp__filesystem__search_files(args) end

---@param args? {}
---@return any
function tools.mcp__filesystem__list_allowed_directories(args) end
