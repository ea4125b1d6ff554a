package asset

import "time"

// SetClock replaces the service's clock (folder listing freshness) in tests.
func SetClock(s *Service, now func() time.Time) { s.now = now }

// FolderFresh is how long an unchanged folder's listing is reused.
const FolderFresh = folderFresh
