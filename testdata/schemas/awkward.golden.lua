---@class mcp__srv__get_item.Args
---@field ["item-id"] string Hyphenated field
---@field ["end"] integer A Lua keyword as a field
---@field ["2fa"]? boolean
---@field ["with space"]? string
---@field ["quote\"d\\"]? string
---@field [""]? string The empty name
---@field ok_name? string

---@param args mcp__srv__get_item.Args
---@return any
tools["mcp__srv__get-item"] = function(args) end

---@param args? { x?: number }
---@return any
tools["mcp__my__server__tool.v2"] = function(args) end

---@param args? {}
---@return any
tools["end"] = function(args) end

---@class mcp__awk__unions.Args
---@field mode "fast"|"slow"|"say \"hi\""|"two\nlines"|"back\\slash" Enum with awkward strings
---@field level? 1|2|3
---@field flag? true|false|1.5|"x"|nil
---@field kind? "fixed" Always the same
---@field maybe? string|nil A string or null
---@field num_or_str? number|string
---@field legacy? string|nil
---Where to send it: a user id or an address object.
---integer: A user id
---@field target? integer|{ street?: string, city: string }|nil
---Output format.
---"json": Machine-readable JSON
---"text": Plain text for people
---@field format? "json"|"text"
---@field either? { a?: string, b?: string }

---@param args mcp__awk__unions.Args
---@return any
function tools.mcp__awk__unions(args) end

---Paging part.
---Query part.
---@class mcp__awk__merged.Args
---@field page? integer (default: 1, minimum: 1)
---@field per_page? integer (default: 30, minimum: 1, maximum: 100)
---@field q string The query
---Lower bound.
---Inclusive. (format: date-time)
---@field since? string

---@param args mcp__awk__merged.Args
---@return any
function tools.mcp__awk__merged(args) end

---@class mcp__awk__tuples_and_maps.Args
---@field point? [number, number] x, y
---@field pair? [string, integer]
---@field matrix? number[][]
---@field mixed? (string|integer)[]
---@field any_list? any[]
---@field env? table<string, string> Environment variables
---@field headers? table<string, string>
---@field anything? table<string, any>
---@field closed? {}
---@field labels? mcp__awk__tuples_and_maps.Args.labels
---@field yes? any
---@field no? nil
---@field untyped? any No type at all

---@class mcp__awk__tuples_and_maps.Args.labels
---@field team? string
---@field [string] string Any other label

---@param args? mcp__awk__tuples_and_maps.Args
---@return any
function tools.mcp__awk__tuples_and_maps(args) end

---@class mcp__awk__refs.Args
---@field tree? mcp__awk__refs.Node The root node
---@field value? string|number|boolean|any[]|table<string, any>|nil Any JSON value.
---@field slash? string Reached through ~1
---@field percent? integer
---@field remote? any
---@field missing? any
---@field self? mcp__awk__refs.Args
---@field loop? any
---@field nullable_node? mcp__awk__refs.Node|nil

---A tree node.
---@class mcp__awk__refs.Node
---@field label string
---@field children? mcp__awk__refs.Node[]

---@param args? mcp__awk__refs.Args
---@return any
function tools.mcp__awk__refs(args) end

---@class mcp__awk__deep.Args
---@field l1? { l2?: { l3?: { l4?: { l5?: { l6?: { l7?: { l8?: { l9?: any } } } } } } } }

---@param args? mcp__awk__deep.Args
---@return any
function tools.mcp__awk__deep(args) end

---Top-level description.
---]] end os.exit() --[[
---@class mcp__awk__hostile_text.Args
---Line one
---Line two ]] --[[ still a comment
-----]] return 1
---
---  indented after a blank line
---@field a? string
---CRLF line
---and a lone CR
---and a line separator
---and a paragraph separator
---end
---@field b? string
---Controls: NUL\x00 ESC\x1B[31m DEL\x7F C1
--- tab	here
---@field c? string
---\@deprecated looks like a tag
---\@param too
---@field d? string
---@field e? string ]==] and [==[ long brackets -- and dashes
---@field f? string Facets with newlines (default: "x\ny", pattern: "^a\nb$")
---@field g? string Leading and trailing blank lines

---@param args? mcp__awk__hostile_text.Args
---@return any
function tools.mcp__awk__hostile_text(args) end

---@param args? any
---string: One line of output
---@return string[]
function tools.mcp__awk__boolean_schemas(args) end
