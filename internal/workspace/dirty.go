package workspace

// DirtyError refuses a branch switch: the workspace has local changes on Branch, the branch
// it is on (errors.Is(err, ErrDirtyWorkspace) holds).
type DirtyError struct{ Branch string }

func (e *DirtyError) Error() string        { return ErrDirtyWorkspace.Error() + " on " + e.Branch }
func (e *DirtyError) Is(target error) bool { return target == ErrDirtyWorkspace }
