---@class mcp__memory__create_entities.Args
---@field entities mcp__memory__create_entities.Args.entities[]

---@class mcp__memory__create_entities.Args.entities
---@field name string The name of the entity
---@field entityType string The type of the entity
---@field observations string[] An array of observation contents associated with the entity

---@class mcp__memory__create_entities.Result
---@field entities mcp__memory__create_entities.Entity[]

---A node of the graph: a person, an organisation, an event.
---@class mcp__memory__create_entities.Entity
---@field name string
---@field entityType string
---@field observations string[]

---@param args mcp__memory__create_entities.Args
---@return mcp__memory__create_entities.Result
function tools.mcp__memory__create_entities(args) end

---@class mcp__memory__create_relations.Args
---@field relations mcp__memory__create_relations.Relation[]

---@class mcp__memory__create_relations.Relation
---@field from string The name of the entity where the relation starts
---@field to string The name of the entity where the relation ends
---@field relationType string The type of the relation

---@param args mcp__memory__create_relations.Args
---@return any
function tools.mcp__memory__create_relations(args) end

---@class mcp__memory__add_observations.Args
---@field observations mcp__memory__add_observations.Args.observations[]

---@class mcp__memory__add_observations.Args.observations
---@field entityName string The name of the entity to add the observations to
---@field contents string[] An array of observation contents to add

---@param args mcp__memory__add_observations.Args
---@return any
function tools.mcp__memory__add_observations(args) end

---@class mcp__memory__read_graph.Result
---@field entities mcp__memory__read_graph.Entity[]
---@field relations mcp__memory__read_graph.Relation[]

---@class mcp__memory__read_graph.Entity
---@field name string
---@field entityType string
---@field observations string[]

---@class mcp__memory__read_graph.Relation
---@field from string
---@field to string
---@field relationType string

---@param args? {}
---@return mcp__memory__read_graph.Result
function tools.mcp__memory__read_graph(args) end

---@class mcp__memory__search_nodes.Args
---@field query string The search query to match against entity names, types, and observation content

---@param args mcp__memory__search_nodes.Args
---@return any
function tools.mcp__memory__search_nodes(args) end

---@class mcp__memory__delete_entities.Args
---@field entityNames string[] An array of entity names to delete

---@param args mcp__memory__delete_entities.Args
---@return any
function tools.mcp__memory__delete_entities(args) end
