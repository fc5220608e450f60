---@class mcp__notes__add_note.Args
---@field title string Short title shown in lists.
---@field body string
---@field priority? "low"|"normal"|"high" (default: "normal")
---@field tags? string[] (default: [])
---When the note is due, if ever. (default: null)
---string: (format: date-time)
---@field due? string|nil
---@field attachments? mcp__notes__add_note.Attachment[]|nil (default: null)

---@class mcp__notes__add_note.Attachment
---@field url string (format: uri, minLength: 1, maxLength: 2083)
---@field caption? string|nil (default: null)

---@param args mcp__notes__add_note.Args
---@return { result: integer }
function tools.mcp__notes__add_note(args) end
