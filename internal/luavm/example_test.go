package luavm_test

import (
	"fmt"

	"github.com/execlua/execlua/internal/luavm"
)

// A script value becomes a tool's JSON arguments: sequences are arrays,
// an empty table is [] where the schema declares an array, and anything
// that is not plain data is refused with its path.
func ExampleToJSON() {
	s := luavm.New(nil)
	defer s.Close()
	schema, _ := luavm.ParseSchema([]byte(`{"properties":{"tags":{"type":"array"}}}`))
	if err := s.L.DoString(`args = { tags = {}, meta = {}, ids = { 1, 2 }, ratio = 0.5 }
		bad = { items = { 1, 2, { cb = print } } }`); err != nil {
		fmt.Println(err)
		return
	}
	good, _ := luavm.ToJSON(s.L, s.L.GetGlobal("args"), schema, "args", 1<<20)
	fmt.Println(string(good))
	_, err := luavm.ToJSON(s.L, s.L.GetGlobal("bad"), schema, "args", 1<<20)
	fmt.Println(err)
	// Output:
	// {"ids":[1,2],"meta":{},"ratio":0.5,"tags":[]}
	// args.items[3].cb is a function; only nil, booleans, numbers, strings and plain tables can be passed to a tool
}
