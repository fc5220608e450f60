package luafloor

import glua "github.com/yuin/gopher-lua"

// Table builds the Lua value of v, decoded by encoding/json into an any,
// with gopher-lua's own calls: one table per object or array, sized for its
// members, and RawSetString or RawSetInt per member.
func Table(L *glua.LState, v any) glua.LValue {
	switch v := v.(type) {
	case map[string]any:
		t := L.CreateTable(0, len(v))
		for k, e := range v {
			t.RawSetString(k, Table(L, e))
		}
		return t
	case []any:
		t := L.CreateTable(len(v), 0)
		for i, e := range v {
			t.RawSetInt(i+1, Table(L, e))
		}
		return t
	case string:
		return glua.LString(v)
	case float64:
		return glua.LNumber(v)
	case bool:
		return glua.LBool(v)
	}
	return glua.LNil
}
