---@class mcp__weather__get_forecast.Args
---@field latitude number Latitude of the location (minimum: -90, maximum: 90)
---@field longitude number Longitude of the location (minimum: -180, maximum: 180)
---@field days? integer (default: 3, minimum: 1, maximum: 14)
---@field units? "metric"|"imperial" (default: "metric")

---The forecast, one entry a day.
---@class mcp__weather__get_forecast.Result
---@field location string Resolved place name
---@field days mcp__weather__get_forecast.Result.days[]
---@field alerts? string[]

---@class mcp__weather__get_forecast.Result.days
---@field date string (format: date)
---@field high number
---@field low number
---@field conditions "sunny"|"cloudy"|"rain"|"snow"|"storm"
---@field precipitation_mm? number|nil Expected precipitation; null when no data

---@param args mcp__weather__get_forecast.Args
---@return mcp__weather__get_forecast.Result
function tools.mcp__weather__get_forecast(args) end

---@class mcp__sentry__get_issue_details.Args
---@field issue_id_or_url string Sentry issue ID or URL to analyze

---@param args mcp__sentry__get_issue_details.Args
---@return {}
function tools.mcp__sentry__get_issue_details(args) end

---@class mcp__calc__evaluate.Result
---@field result number
---How the result was reached,
---one step a line.
---@field steps? string[]
---@field variables? table<string, number> Variables bound while evaluating

---@param args { expression: string }
---@return mcp__calc__evaluate.Result
function tools.mcp__calc__evaluate(args) end

---@param args { key: string }
---@return { value: string }
function tools.mcp__kv__get(args) end
