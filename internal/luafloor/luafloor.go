package luafloor

import (
	"fmt"
	"strings"

	glua "github.com/yuin/gopher-lua"
)

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

// BigDocument is an object-heavy tool output of about size bytes, for the
// heap measurements of big results: an array of records of a dozen
// fields, strings, numbers, a nested object and array.
func BigDocument(size int) []byte {
	var b strings.Builder
	b.WriteString(`{"total":0,"items":[`)
	for i := 0; b.Len() < size; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"id":%d,"number":%d,"title":"Issue number %d: something broke in module %d","state":"open","locked":false,"comments":%d,"score":%g,"author":{"login":"user%d","id":%d,"site_admin":false},"labels":["bug","p%d","area/%d"],"created_at":"2025-01-%02dT10:00:00Z","url":"https://example.com/repo/issues/%d"}`,
			i, i+1000, i, i%97, i%13, float64(i)/7, i%500, 5000+i%500, i%4, i%31, 1+i%28, i)
	}
	b.WriteString(`]}`)
	return []byte(b.String())
}
