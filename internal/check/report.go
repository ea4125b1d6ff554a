package check

// ConfigFile is the portal's readiness file at the root of its tree: the budgets the rules
// use and the findings the authors chose to ignore (versioned with the branch, so an ignore
// is reviewed, committed and undone like any change). docs/portal-format.md "readiness.json".
const ConfigFile = "readiness.json"

// Config is ConfigFile's content.
type Config struct {
	// LengthBudgets limit translation values, in characters, for keys matching a pattern
	// (path.Match syntax over the upper-cased key, e.g. "TXT_SEAT_*"); the first match wins.
	LengthBudgets []LengthBudget `json:"lengthBudgets,omitempty"`
	// SizeBudgetBytes limits the built portal's size (0: no budget).
	SizeBudgetBytes int64 `json:"sizeBudgetBytes,omitempty"`
	// Ignored findings, by finding id.
	Ignored []Ignore `json:"ignored,omitempty"`
}

// LengthBudget is one translation length budget.
type LengthBudget struct {
	Pattern  string `json:"pattern"`
	MaxChars int    `json:"maxChars"`
}

// Ignore is a finding an author chose to ignore, with why, who and when (RFC 3339).
type Ignore struct {
	ID     string `json:"id"`
	Rule   string `json:"rule"`
	Path   string `json:"path"`
	Key    string `json:"key,omitempty"`
	Reason string `json:"reason"`
	By     string `json:"by"`
	At     string `json:"at"`
}

// Report is the result of a run: the findings that count, the ignored ones beside them, and a
// summary. Findings are sorted by path, then line, rule, pointer/key, language.
type Report struct {
	Findings []Finding        `json:"findings"`
	Ignored  []IgnoredFinding `json:"ignored"`
	Summary  Summary          `json:"summary"`
}

// IgnoredFinding is a finding that an entry of Config.Ignored covers.
type IgnoredFinding struct {
	Finding
	Reason string `json:"reason"`
	By     string `json:"by"`
	At     string `json:"at"`
}

// Summary counts the findings that count (not the ignored ones) by severity and by rule, and
// the files checked.
type Summary struct {
	Errors   int            `json:"errors"`
	Warnings int            `json:"warnings"`
	Infos    int            `json:"infos"`
	Ignored  int            `json:"ignored"`
	Files    int            `json:"files"`
	ByRule   map[string]int `json:"byRule"`
}
