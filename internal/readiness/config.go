package readiness

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"path"
	"strconv"
	"strings"
	"unicode/utf8"

	"portalwright/internal/apperr"
	"portalwright/internal/audit"
	"portalwright/internal/caller"
	"portalwright/internal/check"
	"portalwright/internal/editing"
	"portalwright/internal/portalaccess"
	"portalwright/internal/workspace"
)

// readiness.json, the portal's budgets and ignores (check.ConfigFile), is a file of the
// workspace like any other: an ignore or a budget is an uncommitted change, reviewed,
// committed and undone as one. It is rewritten with two-space indentation, keeping keys this
// version does not know.

var configPath = workspace.MustPath(check.ConfigFile)

// Limits of what the calls accept.
const (
	maxReason     = 500
	maxBudgets    = 500
	maxPatternLen = 200
	maxChars      = 100000
	maxFindingID  = 128
)

// configDoc is readiness.json as read: its keys as written, and its version.
type configDoc struct {
	fields  map[string]json.RawMessage
	raw     []byte // nil: no file
	version workspace.Version
}

func (s *Service) readConfig(ctx context.Context, c caller.Caller, pa portalaccess.Portal) (*configDoc, error) {
	data, version, err := s.ws.Files().Read(ctx, c, pa, configPath)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return &configDoc{fields: map[string]json.RawMessage{}, version: workspace.NoVersion}, nil
	case err != nil:
		return nil, editing.FileError(err, check.ConfigFile)
	}
	doc := &configDoc{fields: map[string]json.RawMessage{}, raw: data, version: version}
	if len(bytes.TrimSpace(data)) > 0 {
		if err := json.Unmarshal(data, &doc.fields); err != nil || doc.fields == nil {
			return doc, apperr.Conflict("INVALID_READINESS_FILE",
				check.ConfigFile+" is not a JSON object. Correct it in the File Explorer (or revert it), then try again.")
		}
	}
	return doc, nil
}

// set replaces a key (removes it when v is nil).
func (d *configDoc) set(key string, v any) error {
	if v == nil {
		delete(d.fields, key)
		return nil
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return err
	}
	d.fields[key] = raw
	return nil
}

// ignored answers the entries of "ignored" as written (unknown keys kept).
func (d *configDoc) ignored() []json.RawMessage {
	var list []json.RawMessage
	_ = json.Unmarshal(d.fields["ignored"], &list)
	return list
}

func entryID(raw json.RawMessage) string {
	var e struct {
		ID string `json:"id"`
	}
	_ = json.Unmarshal(raw, &e)
	return e.ID
}

// bytes is the file's new content.
func (d *configDoc) bytes() ([]byte, error) {
	out, err := json.MarshalIndent(d.fields, "", "  ")
	return append(out, '\n'), err
}

// editConfig changes readiness.json through change and writes it at the version it was read
// at; when it changed meanwhile (another save of the same user), it is read and changed once
// more. change answers false to write nothing.
func (s *Service) editConfig(ctx context.Context, c caller.Caller, pa portalaccess.Portal, change func(*configDoc) (bool, error)) error {
	for attempt := 0; ; attempt++ {
		doc, err := s.readConfig(ctx, c, pa)
		if err != nil {
			return err
		}
		write, err := change(doc)
		if err != nil || !write {
			return err
		}
		data, err := doc.bytes()
		if err != nil {
			return err
		}
		_, err = s.ws.Files().Write(ctx, c, pa, configPath, data, doc.version, check.ConfigFile)
		var ae *apperr.Error
		if attempt == 0 && errors.As(err, &ae) && ae.Code == editing.CodeFileChanged {
			continue
		}
		return err
	}
}

// Ignore ignores a finding of the caller's workspace with a reason (an entry of readiness.json
// naming who and when) and answers the workspace's report after it.
func (s *Service) Ignore(ctx context.Context, c caller.Caller, pa portalaccess.Portal, findingID, reason string) (*Report, error) {
	reason = strings.TrimSpace(reason)
	switch {
	case reason == "":
		return nil, apperr.Validation("A reason is required to ignore a finding.")
	case utf8.RuneCountInString(reason) > maxReason:
		return nil, apperr.Validation("The reason is longer than 500 characters.")
	}
	findingID = strings.TrimSpace(findingID)
	if findingID == "" || len(findingID) > maxFindingID {
		return nil, apperr.Validation("The finding to ignore (findingId) is required.")
	}
	w := s.index(wsKey{c.UserID, pa.ID()})
	rep, err := s.current(ctx, c, pa, w)
	if err != nil {
		return nil, err
	}
	var found *check.Finding
	for i := range rep.Findings {
		if rep.Findings[i].ID == findingID {
			found = &rep.Findings[i]
			break
		}
	}
	if found == nil {
		return nil, apperr.NotFound("FINDING_NOT_FOUND", "The finding "+findingID+" is no longer reported.")
	}
	entry := check.Ignore{ID: found.ID, Rule: found.Rule, Path: found.Path, Key: found.Key, Reason: reason, By: c.Username,
		At: s.now().Format("2006-01-02T15:04:05Z07:00")}
	raw, err := json.Marshal(entry)
	if err != nil {
		return nil, err
	}
	err = s.editConfig(ctx, c, pa, func(doc *configDoc) (bool, error) {
		list := []json.RawMessage{}
		for _, e := range doc.ignored() {
			if entryID(e) != findingID {
				list = append(list, e)
			}
		}
		return true, doc.set("ignored", append(list, raw))
	})
	if err != nil {
		return nil, err
	}
	return s.check(ctx, c, pa, w, nil, false)
}

// Unignore removes a finding's ignore from readiness.json (404 when it is not ignored) and
// answers the workspace's report after it.
func (s *Service) Unignore(ctx context.Context, c caller.Caller, pa portalaccess.Portal, findingID string) (*Report, error) {
	err := s.editConfig(ctx, c, pa, func(doc *configDoc) (bool, error) {
		list := []json.RawMessage{}
		for _, e := range doc.ignored() {
			if entryID(e) != findingID {
				list = append(list, e)
			}
		}
		if len(list) == len(doc.ignored()) {
			return false, apperr.NotFound("IGNORE_NOT_FOUND", "The finding "+findingID+" is not ignored.")
		}
		if len(list) == 0 {
			return true, doc.set("ignored", nil)
		}
		return true, doc.set("ignored", list)
	})
	if err != nil {
		return nil, err
	}
	return s.check(ctx, c, pa, s.index(wsKey{c.UserID, pa.ID()}), nil, false)
}

// Settings are the portal's readiness settings: the approval gate (the database, per portal)
// and the budgets (readiness.json of the caller's workspace, at Version).
type Settings struct {
	Gate            bool                 `json:"gate"`
	LengthBudgets   []check.LengthBudget `json:"lengthBudgets"`
	SizeBudgetBytes int64                `json:"sizeBudgetBytes"`
	Version         string               `json:"version"`
}

// Settings reads the gate and the caller's workspace's budgets. A readiness.json that is not
// JSON reads as no budgets (saving then asks to correct it).
func (s *Service) Settings(ctx context.Context, c caller.Caller, pa portalaccess.Portal) (*Settings, error) {
	on, err := s.gates.gate(ctx, pa.ID())
	if err != nil {
		return nil, err
	}
	doc, err := s.readConfig(ctx, c, pa)
	if doc == nil {
		return nil, err
	}
	out := &Settings{Gate: on, LengthBudgets: []check.LengthBudget{}, Version: string(doc.version)}
	_ = json.Unmarshal(doc.fields["lengthBudgets"], &out.LengthBudgets)
	_ = json.Unmarshal(doc.fields["sizeBudgetBytes"], &out.SizeBudgetBytes)
	if out.LengthBudgets == nil {
		out.LengthBudgets = []check.LengthBudget{}
	}
	return out, nil
}

// SaveSettings checks every value, then writes the budgets into readiness.json if it is still
// at in.Version (409 FILE_CHANGED otherwise) and records the gate (a change of it in the audit
// history). Nothing is written when anything is wrong.
func (s *Service) SaveSettings(ctx context.Context, c caller.Caller, pa portalaccess.Portal, in Settings) (*Settings, error) {
	budgets, err := checkBudgets(in.LengthBudgets)
	if err != nil {
		return nil, err
	}
	if in.SizeBudgetBytes < 0 {
		return nil, apperr.Validation("The size budget must be 0 (no budget) or a number of bytes.")
	}
	if in.Version == "" {
		return nil, apperr.Validation("The version of " + check.ConfigFile + " the settings were read at is required.")
	}
	was, err := s.gates.gate(ctx, pa.ID())
	if err != nil {
		return nil, err
	}
	doc, err := s.readConfig(ctx, c, pa)
	if err != nil {
		return nil, err
	}
	if string(doc.version) != in.Version {
		return nil, editing.FileError(&workspace.ErrStale{Current: doc.version}, check.ConfigFile)
	}
	before := valuesOf(doc.fields["lengthBudgets"], doc.fields["sizeBudgetBytes"])
	var lengths, size any
	if len(budgets) > 0 {
		lengths = budgets
	}
	if in.SizeBudgetBytes > 0 {
		size = in.SizeBudgetBytes
	}
	if err := errors.Join(doc.set("lengthBudgets", lengths), doc.set("sizeBudgetBytes", size)); err != nil {
		return nil, err
	}
	if valuesOf(doc.fields["lengthBudgets"], doc.fields["sizeBudgetBytes"]) != before { // else: no change to the file
		data, err := doc.bytes()
		if err != nil {
			return nil, err
		}
		if _, err := s.ws.Files().Write(ctx, c, pa, configPath, data, doc.version, check.ConfigFile); err != nil {
			return nil, err
		}
	}
	if in.Gate != was {
		if err := s.gates.setGate(ctx, pa.ID(), c.UserID, in.Gate, s.now()); err != nil {
			return nil, err
		}
		s.recordGate(ctx, c, pa, in.Gate)
	}
	return s.Settings(ctx, c, pa)
}

// valuesOf is the values of raw JSON, whatever their spacing, as one comparable string.
func valuesOf(raws ...json.RawMessage) string {
	var b strings.Builder
	for _, raw := range raws {
		var v any
		_ = json.Unmarshal(raw, &v)
		out, _ := json.Marshal(v)
		b.Write(out)
		b.WriteByte(0)
	}
	return b.String()
}

// checkBudgets validates length budgets: a pattern of path.Match (trimmed, at most 200
// characters) and a maximum of 1 to 100000 characters each.
func checkBudgets(in []check.LengthBudget) ([]check.LengthBudget, error) {
	if len(in) > maxBudgets {
		return nil, apperr.Validation("A portal has at most 500 length budgets.")
	}
	out := make([]check.LengthBudget, 0, len(in))
	for i, b := range in {
		n := "Length budget " + strconv.Itoa(i+1) + ": "
		p := strings.TrimSpace(b.Pattern)
		if p == "" || utf8.RuneCountInString(p) > maxPatternLen {
			return nil, apperr.Validation(n + "the key pattern is required (at most 200 characters, e.g. TXT_SEAT_*).")
		}
		if _, err := path.Match(p, ""); err != nil {
			return nil, apperr.Validation(n + "the key pattern " + strconv.Quote(p) + " is not a valid pattern (use * for any characters, ? for one, [A-Z] for a range).")
		}
		if b.MaxChars < 1 || b.MaxChars > maxChars {
			return nil, apperr.Validation(n + "the maximum must be a whole number of characters from 1 to 100000.")
		}
		out = append(out, check.LengthBudget{Pattern: p, MaxChars: b.MaxChars})
	}
	return out, nil
}

// ActionGateChanged is the audit action of a change of a portal's approval gate.
const ActionGateChanged = "READINESS_GATE_CHANGED"

func (s *Service) recordGate(ctx context.Context, c caller.Caller, pa portalaccess.Portal, on bool) {
	if s.audit == nil {
		return
	}
	state := "off"
	if on {
		state = "on"
	}
	actor, domain := c.UserID, pa.DomainID()
	s.audit.Record(ctx, audit.Entry{Action: ActionGateChanged, Category: "PORTAL", ActorID: &actor, ActorName: c.Username, DomainID: &domain,
		EntityType: "PORTAL", EntityID: strconv.FormatInt(pa.ID(), 10),
		Details: "The readiness gate of " + pa.Name() + " was turned " + state + "."})
}
