-- expect: error resulting string too large
-- One replacement that repeats the whole match a thousand times: the size
-- is checked before each piece is written.
local s = ("x"):rep(2^20)
return (s:gsub(".+", ("%0"):rep(1000)))
