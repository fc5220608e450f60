---@class WebFetch.Args
---@field url string The URL to fetch content from (format: uri)
---@field prompt string The prompt to run on the fetched content

---@param args WebFetch.Args
---@return any
function tools.WebFetch(args) end

---@class TaskCreate.Args
---@field subject string A brief title for the task, in the imperative form (e.g. "Fix authentication bug in login flow")
---@field description string A detailed description of what needs to be done
---@field activeForm? string Present continuous form shown in the spinner while the task is in progress (e.g. "Fixing authentication bug")
---@field metadata? table<string, any> Arbitrary metadata to attach to the task

---@param args TaskCreate.Args
---@return any
function tools.TaskCreate(args) end

---@class CronCreate.Args
---@field schedule string Five-field cron expression in the host's local time zone, e.g. "*/5 * * * *". (pattern: ^(\S+\s+){4}\S+$)
---@field prompt string What to do each time the schedule fires. (minLength: 1, maxLength: 4000)
---@field recurring? boolean (default: true)

---@param args CronCreate.Args
---@return any
function tools.CronCreate(args) end

---@class ExitPlanMode.Args
---@field plan string The plan you came up with, that you want to run by the user for approval. Supports markdown. The plan should be pretty concise.

---@param args ExitPlanMode.Args
---@return any
function tools.ExitPlanMode(args) end

---@param args? {}
---@return any
function tools.EnterWorktree(args) end
