package sandbox

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"

	"github.com/execlua/execlua/internal/jsontext"
)

// Value is the script's return value as JSON: a string as a JSON string,
// any other value as its JSON, several values as an array. Nil when the
// script returned nothing or the value was cut (at MaxResultChars, or by
// the string limit while rendering).
func (o Outcome) Value() json.RawMessage {
	switch {
	case !o.HasResult || o.ResultChars > utf8.RuneCountInString(o.Result):
		return nil
	case o.StringResult:
		var b bytes.Buffer
		jsontext.WriteString(&b, o.Result)
		return b.Bytes()
	case !json.Valid([]byte(o.Result)):
		return nil
	}
	return json.RawMessage(o.Result)
}
