-- expect: ok
-- Every library function with pairs of extreme numbers, empty and odd
-- arguments, each under pcall: errors are fine, a crash is not.
local values = { 0, -0, 2^53, -2^53, 2^62, -2^62, 2^63, 0/0, 1/0, -1/0, -1, "", "%", {} }
local count = 0
for _, lib in ipairs({ "_G", "string", "table", "math" }) do
	local t = lib == "_G" and _G or _G[lib]
	local names = {}
	for k, v in pairs(t) do
		if type(v) == "function" and k ~= "print" then names[#names + 1] = k end
	end
	for _, k in ipairs(names) do
		local f = t[k]
		pcall(f)
		for _, a in ipairs(values) do
			for _, b in ipairs(values) do
				pcall(f, a, b)
				pcall(f, "abc", a, b)
				pcall(f, { 1, 2, 3 }, a, b)
				count = count + 3
			end
		end
	end
end
return count > 0
