package execlua_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/execlua/execlua"
)

// A host with an embedding model adds it to ToolSearch. Lexically, "stash"
// finds stash_note first; the model knows that stashing a customer in the
// archive is archiving a contact, and the fused ranking puts that first.
func ExampleNewSemantic() {
	// A toy model, one axis a meaning: a host calls its embedding model
	// or service here, with a batch of texts.
	meaning := map[string]int{"stash": 0, "archive": 0, "customer": 1, "contact": 1, "note": 2}
	model := execlua.EmbedderFunc(func(_ context.Context, texts []string) ([][]float32, error) {
		out := make([][]float32, len(texts))
		for i, text := range texts {
			out[i] = make([]float32, 3)
			for _, w := range strings.Fields(strings.ToLower(text)) {
				if axis, ok := meaning[strings.Trim(w, ".,:")]; ok {
					out[i][axis]++
				}
			}
		}
		return out, nil
	})
	var tools []execlua.Tool
	for _, listed := range [][2]string{
		{"crm", `{"name":"archive_contact","description":"Move a contact to the archive.","inputSchema":{"type":"object"}}`},
		{"crm", `{"name":"list_contacts","description":"List every contact.","inputSchema":{"type":"object"}}`},
		{"notes", `{"name":"stash_note","description":"Keep a note aside.","inputSchema":{"type":"object"}}`},
	} {
		tool, err := execlua.NewMCPTool(listed[0], json.RawMessage(listed[1]))
		if err != nil {
			fmt.Println(err)
			return
		}
		tools = append(tools, tool)
	}
	funnel := execlua.FunnelFunc(func(context.Context, execlua.Call) (execlua.Output, error) { return execlua.Output{}, nil })
	s, err := execlua.New(funnel, &execlua.Options{Tools: tools, Semantic: execlua.NewSemantic(model, nil)})
	if err != nil {
		fmt.Println(err)
		return
	}
	res := s.Run(context.Background(), json.RawMessage(`{"code":
		"return tools.ToolSearch{ query = 'stash the customer in the archive' }.matches[1].name"}`), nil)
	fmt.Println(res.Text)
	// Output: mcp__crm__archive_contact
}
