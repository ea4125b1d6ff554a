package portal

import (
	"encoding/json"
	"os"
	"path/filepath"
)

// marshalSettings writes the settings over the existing portal.json, keeping keys this
// version does not know, so older and newer versions can share a portal.
func marshalSettings(path string, s Settings) ([]byte, error) {
	merged := map[string]json.RawMessage{}
	if data, err := os.ReadFile(path); err == nil {
		_ = json.Unmarshal(data, &merged)
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

// writeFileAtomic replaces a file so readers never see half of it.
func writeFileAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".pw-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
