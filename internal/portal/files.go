package portal

import "encoding/json"

// marshalSettings writes the settings over the existing portal.json (current, nil when
// there is none), keeping keys this version does not know, so older and newer versions can
// share a portal.
func marshalSettings(current []byte, s Settings) ([]byte, error) {
	merged := map[string]json.RawMessage{}
	if current != nil {
		_ = json.Unmarshal(current, &merged)
	}
	known, err := json.Marshal(s)
	if err != nil {
		return nil, err
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(known, &fields); err != nil {
		return nil, err
	}
	for k, v := range fields {
		merged[k] = v
	}
	out, err := json.MarshalIndent(merged, "", "  ")
	return append(out, '\n'), err
}
