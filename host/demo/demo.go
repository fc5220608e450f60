package demo

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// Names of the demo servers, in the order Servers lists them.
const (
	Demo    = "demo"
	Notes   = "notes"
	Weather = "weather"
)

// Version is the version every demo server reports.
const Version = "1.0.0"

// Servers returns a fresh set of demo servers keyed by server name. Each
// call has its own state: notes added through one set are not seen by
// another.
func Servers() map[string]*server.MCPServer {
	return map[string]*server.MCPServer{
		Demo:    NewDemo(),
		Notes:   NewNotes(),
		Weather: NewWeather(),
	}
}

// NewDemo returns the demo server: echo, sleep, chart and fail.
func NewDemo() *server.MCPServer {
	s := server.NewMCPServer(Demo, Version,
		server.WithInstructions("Fixtures for trying scripts: echo, a slow call, an image and a failing call."))
	s.AddTool(mcp.NewTool("echo",
		mcp.WithDescription("Return the arguments unchanged, as structured content."),
		mcp.WithReadOnlyHintAnnotation(true),
		mcp.WithDestructiveHintAnnotation(false),
		mcp.WithSchemaAdditionalProperties(true),
	), echo)
	s.AddTool(mcp.NewTool("sleep",
		mcp.WithDescription("Wait ms milliseconds, then answer { slept = ms }. A slow call for trying parallel and budgets."),
		mcp.WithInteger("ms", mcp.Required(), mcp.Min(0), mcp.Max(60000), mcp.Description("How long to wait, in milliseconds.")),
		mcp.WithRawOutputSchema([]byte(`{"type":"object","properties":{"slept":{"type":"integer","description":"The milliseconds waited."}},"required":["slept"]}`)),
		mcp.WithReadOnlyHintAnnotation(true),
		mcp.WithDestructiveHintAnnotation(false),
	), sleep)
	s.AddTool(mcp.NewTool("chart",
		mcp.WithDescription("Draw a bar chart of the values as a PNG image."),
		mcp.WithArray("values", mcp.Required(), mcp.Description("The bar heights, 0 to 100."), mcp.Items(map[string]any{"type": "number"})),
		mcp.WithReadOnlyHintAnnotation(true),
		mcp.WithDestructiveHintAnnotation(false),
	), chart)
	s.AddTool(mcp.NewTool("fail",
		mcp.WithDescription("Always fail with the given message: for trying pcall."),
		mcp.WithString("message", mcp.Description("The error text."), mcp.DefaultString("the demo tool failed as asked")),
		mcp.WithReadOnlyHintAnnotation(true),
		mcp.WithDestructiveHintAnnotation(false),
	), fail)
	return s
}

func echo(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	args := req.GetArguments()
	if args == nil {
		args = map[string]any{}
	}
	return mcp.NewToolResultStructuredOnly(args), nil
}

func sleep(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	ms, err := req.RequireInt("ms")
	if err != nil || ms < 0 || ms > 60000 {
		return mcp.NewToolResultError("ms must be an integer from 0 to 60000"), nil
	}
	t := time.NewTimer(time.Duration(ms) * time.Millisecond)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	return mcp.NewToolResultStructured(map[string]any{"slept": ms}, fmt.Sprintf("slept %d ms", ms)), nil
}

func chart(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	values, err := req.RequireFloatSlice("values")
	if err != nil || len(values) == 0 || len(values) > 50 {
		return mcp.NewToolResultError("values must be a list of 1 to 50 numbers"), nil
	}
	data, err := barChart(values)
	if err != nil {
		return nil, err
	}
	return mcp.NewToolResultImage(fmt.Sprintf("a bar chart of %d values", len(values)), data, "image/png"), nil
}

// barChart draws one 8-pixel bar per value on a 100-pixel-high canvas and
// returns the PNG, base64-encoded as MCP carries images.
func barChart(values []float64) (string, error) {
	const bar, height = 8, 100
	img := image.NewNRGBA(image.Rect(0, 0, bar*len(values), height))
	for i, v := range values {
		h := int(min(max(v, 0), height))
		for x := i * bar; x < (i+1)*bar-1; x++ {
			for y := height - h; y < height; y++ {
				img.Set(x, y, color.NRGBA{R: 0x33, G: 0x66, B: 0xcc, A: 0xff})
			}
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		return "", err
	}
	return base64.StdEncoding.EncodeToString(buf.Bytes()), nil
}

func fail(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	return mcp.NewToolResultError(req.GetString("message", "the demo tool failed as asked")), nil
}

// note is one entry of the notes server's store.
type note struct {
	ID    int      `json:"id"`
	Title string   `json:"title"`
	Body  string   `json:"body"`
	Tags  []string `json:"tags"`
}

// noteStore is the notes server's state, shared by its sessions.
type noteStore struct {
	mu    sync.Mutex
	next  int
	notes []note
}

const noteSchema = `{"type":"object","properties":{"id":{"type":"integer"},"title":{"type":"string"},"body":{"type":"string"},"tags":{"type":"array","items":{"type":"string"}}},"required":["id","title","body","tags"]}`

// NewNotes returns the notes server, holding three notes to start with.
func NewNotes() *server.MCPServer {
	st := &noteStore{next: 4, notes: []note{
		{1, "Release checklist", "Tag, build, publish the changelog.", []string{"work"}},
		{2, "Groceries", "Rice, lemons, coffee.", []string{"home"}},
		{3, "Ideas", "A CLI that dry-runs agent scripts.", []string{"work", "ideas"}},
	}}
	s := server.NewMCPServer(Notes, Version,
		server.WithInstructions("A small note store kept in memory."))
	s.AddTool(mcp.NewTool("list_notes",
		mcp.WithDescription("List the notes, optionally only those with a tag."),
		mcp.WithString("tag", mcp.Description("Only notes with this tag.")),
		mcp.WithRawOutputSchema([]byte(`{"type":"object","properties":{"notes":{"type":"array","items":`+noteSchema+`}},"required":["notes"]}`)),
		mcp.WithReadOnlyHintAnnotation(true),
		mcp.WithDestructiveHintAnnotation(false),
	), st.list)
	s.AddTool(mcp.NewTool("get_note",
		mcp.WithDescription("Read one note by id."),
		mcp.WithInteger("id", mcp.Required(), mcp.Min(1)),
		mcp.WithRawOutputSchema([]byte(noteSchema)),
		mcp.WithReadOnlyHintAnnotation(true),
		mcp.WithDestructiveHintAnnotation(false),
	), st.get)
	s.AddTool(mcp.NewTool("add_note",
		mcp.WithDescription("Add a note and return it with its new id."),
		mcp.WithString("title", mcp.Required(), mcp.MinLength(1)),
		mcp.WithString("body", mcp.Description("The note's text.")),
		mcp.WithArray("tags", mcp.Items(map[string]any{"type": "string"})),
		mcp.WithRawOutputSchema([]byte(noteSchema)),
		mcp.WithReadOnlyHintAnnotation(false),
		mcp.WithDestructiveHintAnnotation(false),
		mcp.WithIdempotentHintAnnotation(false),
	), st.add)
	s.AddTool(mcp.NewTool("delete_note",
		mcp.WithDescription("Delete a note by id, for good."),
		mcp.WithInteger("id", mcp.Required(), mcp.Min(1)),
		mcp.WithReadOnlyHintAnnotation(false),
		mcp.WithDestructiveHintAnnotation(true),
		mcp.WithIdempotentHintAnnotation(true),
	), st.delete)
	return s
}

func (st *noteStore) list(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	tag := req.GetString("tag", "")
	st.mu.Lock()
	defer st.mu.Unlock()
	out := []note{}
	for _, n := range st.notes {
		if tag == "" || slices.Contains(n.Tags, tag) {
			out = append(out, n)
		}
	}
	return mcp.NewToolResultStructuredOnly(map[string]any{"notes": out}), nil
}

// find locks the store and returns the index of the note the request's id
// names, or the error result to answer with (the lock is then released).
func (st *noteStore) find(req mcp.CallToolRequest) (int, *mcp.CallToolResult) {
	id, err := req.RequireInt("id")
	if err != nil {
		return 0, mcp.NewToolResultError("id must be an integer")
	}
	st.mu.Lock()
	i := slices.IndexFunc(st.notes, func(n note) bool { return n.ID == id })
	if i < 0 {
		st.mu.Unlock()
		return 0, mcp.NewToolResultErrorf("no note with id %d", id)
	}
	return i, nil
}

func (st *noteStore) get(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	i, failed := st.find(req)
	if failed != nil {
		return failed, nil
	}
	defer st.mu.Unlock()
	return mcp.NewToolResultStructuredOnly(st.notes[i]), nil
}

func (st *noteStore) add(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	title, err := req.RequireString("title")
	if err != nil || strings.TrimSpace(title) == "" {
		return mcp.NewToolResultError("title must be a non-empty string"), nil
	}
	n := note{Title: title, Body: req.GetString("body", ""), Tags: req.GetStringSlice("tags", []string{})}
	st.mu.Lock()
	defer st.mu.Unlock()
	n.ID = st.next
	st.next++
	st.notes = append(st.notes, n)
	return mcp.NewToolResultStructuredOnly(n), nil
}

func (st *noteStore) delete(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	i, failed := st.find(req)
	if failed != nil {
		return failed, nil
	}
	defer st.mu.Unlock()
	id := st.notes[i].ID
	st.notes = slices.Delete(st.notes, i, i+1)
	return mcp.NewToolResultText(fmt.Sprintf("deleted note %d", id)), nil
}

// forecasts is the weather server's whole world: a few cities, a fixed
// week each, so that scripts and tests see the same answers every time.
var forecasts = map[string][]day{
	"lisbon": {{"sunny", 24, 16}, {"sunny", 25, 17}, {"cloudy", 22, 16}, {"rain", 19, 14}, {"sunny", 23, 15}, {"sunny", 24, 16}, {"cloudy", 21, 15}},
	"oslo":   {{"snow", -2, -8}, {"cloudy", 0, -5}, {"snow", -3, -9}, {"sunny", 1, -6}, {"cloudy", 0, -4}, {"snow", -1, -7}, {"sunny", 2, -5}},
	"tokyo":  {{"rain", 18, 12}, {"cloudy", 19, 13}, {"sunny", 21, 14}, {"sunny", 22, 15}, {"rain", 17, 12}, {"cloudy", 18, 13}, {"sunny", 20, 14}},
}

type day struct {
	Sky  string `json:"sky"`
	High int    `json:"high"`
	Low  int    `json:"low"`
}

// NewWeather returns the weather server: one read-only forecast tool.
func NewWeather() *server.MCPServer {
	s := server.NewMCPServer(Weather, Version,
		server.WithInstructions("Canned forecasts for Lisbon, Oslo and Tokyo."))
	tool := mcp.NewTool("forecast",
		mcp.WithDescription("The daily forecast for a city: sky, high and low in degrees Celsius."),
		mcp.WithString("city", mcp.Required(), mcp.Enum("Lisbon", "Oslo", "Tokyo")),
		mcp.WithInteger("days", mcp.Min(1), mcp.Max(7), mcp.DefaultNumber(3)),
		mcp.WithRawOutputSchema([]byte(`{"type":"object","properties":{"city":{"type":"string"},"days":{"type":"array","items":{"type":"object","properties":{"sky":{"type":"string","enum":["sunny","cloudy","rain","snow"]},"high":{"type":"integer"},"low":{"type":"integer"}},"required":["sky","high","low"]}}},"required":["city","days"]}`)),
		mcp.WithReadOnlyHintAnnotation(true),
		mcp.WithDestructiveHintAnnotation(false),
		mcp.WithOpenWorldHintAnnotation(true),
	)
	tool.Meta = mcp.NewMetaFromMap(map[string]any{"anthropic/searchHint": "weather temperature rain"})
	s.AddTool(tool, func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		city, err := req.RequireString("city")
		week, ok := forecasts[strings.ToLower(city)]
		if err != nil || !ok {
			return mcp.NewToolResultError("city must be one of Lisbon, Oslo, Tokyo"), nil
		}
		n := req.GetInt("days", 3)
		if n < 1 || n > len(week) {
			return mcp.NewToolResultError("days must be from 1 to 7"), nil
		}
		lines := make([]string, n)
		for i, d := range week[:n] {
			lines[i] = fmt.Sprintf("day %d: %s, %d/%d °C", i+1, d.Sky, d.High, d.Low)
		}
		return mcp.NewToolResultStructured(map[string]any{"city": city, "days": week[:n]}, strings.Join(lines, "\n")), nil
	})
	return s
}
