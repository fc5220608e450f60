package lua

import (
	"fmt"
	"strconv"

	"github.com/execlua/execlua/internal/jsontext"
	glua "github.com/yuin/gopher-lua"
)

// FromJSON builds a fresh Lua value from JSON: objects and arrays become
// new tables, null becomes nil (a null array element leaves a hole).
// Reading the JSON is jsontext's, the project's one parser, whose tree
// sizes each table before it is filled; a tool's output is decoded on
// every nested call. Nothing of Go reaches the script.
func FromJSON(L *glua.LState, raw []byte) (glua.LValue, error) {
	v, err := jsontext.Parse(string(raw))
	if err != nil {
		return glua.LNil, fmt.Errorf("tool output is not valid JSON: %w", err)
	}
	return fromValue(L, v)
}

func fromValue(L *glua.LState, v *jsontext.Value) (glua.LValue, error) {
	switch v.Kind {
	case 'o':
		t := L.CreateTable(0, len(v.Members))
		for _, m := range v.Members {
			item, err := fromValue(L, m.Value)
			if err != nil {
				return glua.LNil, err
			}
			t.RawSetString(m.Key, item)
		}
		return t, nil
	case 'a':
		t := L.CreateTable(len(v.Members), 0)
		for i, m := range v.Members {
			item, err := fromValue(L, m.Value)
			if err != nil {
				return glua.LNil, err
			}
			t.RawSetInt(i+1, item)
		}
		return t, nil
	case 's':
		return glua.LString(v.Str), nil
	case 'n':
		f, err := strconv.ParseFloat(v.Str, 64)
		if err != nil {
			return glua.LNil, fmt.Errorf("tool output is not valid JSON: number %s does not fit a float64", v.Str)
		}
		return glua.LNumber(f), nil
	case 'b':
		return glua.LBool(v.Bool), nil
	}
	return glua.LNil, nil
}
