package luavm

import (
	"testing"

	glua "github.com/yuin/gopher-lua"
)

// An empty table decoded from JSON knows its kind without a weak handle;
// a table a script makes is never taken for one, and the mark goes once
// the table has had a field.
func TestEmptyKindMark(t *testing.T) {
	s := New(nil)
	defer s.Close()
	for _, c := range []struct {
		doc   string
		array bool
	}{{`[]`, true}, {`{}`, false}} {
		v, err := s.FromJSON(s.L, []byte(c.doc))
		if err != nil {
			t.Fatal(err)
		}
		tab := v.(*glua.LTable)
		if array, known := emptyKind(tab); !known || array != c.array {
			t.Errorf("%s: emptyKind = %v, %v; want %v, known", c.doc, array, known, c.array)
		}
		tab.RawSetH(glua.LNumber(7), glua.LTrue)
		tab.RawSetH(glua.LNumber(7), glua.LNil)
		tab.RawSetString("k", glua.LTrue)
		tab.RawSetString("k", glua.LNil)
		if _, known := emptyKind(tab); known && !c.array {
			t.Errorf("%s: still marked after a field came and went", c.doc)
		}
	}
	if _, known := emptyKind(s.L.NewTable()); known {
		t.Error("a script's empty table is taken for one from JSON")
	}
}
