local check, eq
do
	local function show(v, seen)
		if type(v) == "string" then return string.format("%q", v) end
		if type(v) ~= "table" then return tostring(v) end
		seen = seen or {}
		if seen[v] then return "<cycle>" end
		seen[v] = true
		local keys = {}
		for k in pairs(v) do keys[#keys + 1] = k end
		table.sort(keys, function(a, b) return tostring(a) < tostring(b) end)
		local parts = {}
		for _, k in ipairs(keys) do parts[#parts + 1] = tostring(k) .. "=" .. show(v[k], seen) end
		return "{" .. table.concat(parts, ", ") .. "}"
	end
	local function same(a, b)
		if a == b then return true end
		if type(a) ~= "table" or type(b) ~= "table" then return a == b end
		for k, v in pairs(a) do if not same(v, b[k]) then return false end end
		for k in pairs(b) do if a[k] == nil then return false end end
		return true
	end
	check = function(cond, msg)
		if not cond then tools.test_fail{ message = tostring(msg or "check failed") } end
	end
	eq = function(got, want, msg)
		if not same(got, want) then
			tools.test_fail{ message = tostring(msg or "eq") .. ": got " .. show(got) .. ", want " .. show(want) }
		end
	end
end
