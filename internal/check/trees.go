package check

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"portalwright/internal/gitcli"
)

// ErrNotInTree is returned (wrapped) by a tree's Read for a path that is not one of its files.
var ErrNotInTree = errors.New("not a file of the tree")

// cleanRel says whether p is a clean, relative, slash-separated path inside a tree, outside
// .git.
func cleanRel(p string) bool {
	if p == "" || p == "." || strings.HasPrefix(p, "/") || strings.ContainsRune(p, 0) || strings.Contains(p, "\\") || path.Clean(p) != p || p == ".." || strings.HasPrefix(p, "../") {
		return false
	}
	for _, part := range strings.Split(p, "/") {
		if strings.EqualFold(part, ".git") {
			return false
		}
	}
	return true
}

// dirTree is a folder on disk.
type dirTree struct{ root string }

// DirTree is a folder on disk as a Tree (the command's DIR; a workspace folder on the server).
// Files lists regular files only, never following a symbolic link (links, devices, sockets and
// pipes are left out) and skipping .git (a folder or a file) at any depth; a file's Version is
// its size and modification time. Read refuses a path that is not clean and relative, and
// reads through os.Root, so a link cannot lead it out of the folder.
func DirTree(root string) Tree { return dirTree{root: root} }

func (t dirTree) Files(ctx context.Context) ([]File, error) {
	fi, err := os.Stat(t.root)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("%s is not a folder", t.root)
	}
	var out []File
	err = filepath.WalkDir(t.root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == t.root {
				return err
			}
			return nil // unreadable below the root: left out
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if p == t.root {
			return nil
		}
		if strings.EqualFold(d.Name(), ".git") {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() || !d.Type().IsRegular() {
			return nil // WalkDir never follows a link; links and special files are left out
		}
		info, err := d.Info() // lstat
		if err != nil || !info.Mode().IsRegular() {
			return nil
		}
		rel, err := filepath.Rel(t.root, p)
		if err != nil {
			return nil
		}
		rel = filepath.ToSlash(rel)
		out = append(out, File{Path: rel, Size: info.Size(), Version: strconv.FormatInt(info.Size(), 10) + "-" + strconv.FormatInt(info.ModTime().UnixNano(), 10)})
		return nil
	})
	if err != nil {
		return nil, err
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, nil
}

func (t dirTree) Read(ctx context.Context, p string) ([]byte, error) {
	if !cleanRel(p) {
		return nil, fmt.Errorf("%w: %q", ErrNotInTree, p)
	}
	r, err := os.OpenRoot(t.root)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	fi, err := r.Lstat(p)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%w: %q is not a regular file", ErrNotInTree, p)
	}
	f, err := r.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// Never more than the engine reads of a file, even when it grew since it was listed.
	data, err := io.ReadAll(io.LimitReader(f, maxRead+1))
	if err == nil && len(data) > maxRead {
		return nil, fmt.Errorf("check: %q is larger than %d bytes", p, maxRead)
	}
	return data, err
}

// Runner runs git for a GitTree; *gitcli.Git is one. The server may pass its own (its git,
// its time-outs); Stream must write the command's stdout to w as it comes, and return when
// the command ends.
type Runner interface {
	Run(ctx context.Context, dir string, c *gitcli.Cmd) ([]byte, error)
	Stream(ctx context.Context, dir string, c *gitcli.Cmd, w io.Writer) error
}

// GitTree is one commit of a git repository as a Tree: the files of `git ls-tree -r -l -z
// --full-tree <commit>` (blobs only: submodules and symbolic links are left out), each
// read through one long-lived `git cat-file --batch`. A file's Version is its blob id.
// Close ends the batch process.
type GitTree struct {
	git    Runner
	dir    string
	files  []File
	blobs  map[string]string // path → blob id
	mu     sync.Mutex        // one request at a time on the batch process
	stdin  *io.PipeWriter
	stdout *bufio.Reader
	cancel context.CancelFunc
	done   chan error
	closed bool
}

// batchTimeout bounds the life of a GitTree's batch process.
const batchTimeout = time.Hour

// NewGitTree lists commit (a commit id or a ref) of the repository at dir (a bare repository
// or a working copy's folder) through git.
func NewGitTree(ctx context.Context, git Runner, dir, commit string) (*GitTree, error) {
	out, err := git.Run(ctx, dir, gitcli.Command("ls-tree", "-r", "-l", "-z", "--full-tree").Value(commit))
	if err != nil {
		return nil, err
	}
	t := &GitTree{git: git, dir: dir, blobs: map[string]string{}}
	for _, entry := range strings.Split(string(out), "\x00") {
		meta, name, ok := strings.Cut(entry, "\t")
		if !ok {
			continue
		}
		f := strings.Fields(meta) // mode type object size
		if len(f) != 4 || f[1] != "blob" || f[0] == "120000" || !cleanRel(name) {
			continue
		}
		size, err := strconv.ParseInt(f[3], 10, 64)
		if err != nil {
			continue
		}
		t.blobs[name] = f[2]
		t.files = append(t.files, File{Path: name, Size: size, Version: f[2]})
	}
	sort.Slice(t.files, func(i, j int) bool { return t.files[i].Path < t.files[j].Path })
	return t, nil
}

// Files lists the commit's files.
func (t *GitTree) Files(ctx context.Context) ([]File, error) {
	return append([]File(nil), t.files...), nil
}

// start runs the batch process (t.mu held).
func (t *GitTree) start() {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	t.stdin, t.stdout, t.cancel, t.done = inW, bufio.NewReaderSize(outR, 64<<10), cancel, make(chan error, 1)
	go func() {
		err := t.git.Stream(ctx, t.dir, gitcli.Command("cat-file", "--batch").Stdin(inR).Timeout(batchTimeout), outW)
		_ = outW.CloseWithError(errOr(err, io.EOF))
		_ = inR.CloseWithError(errOr(err, io.ErrClosedPipe))
		t.done <- err
	}()
}

func errOr(err, otherwise error) error {
	if err != nil {
		return err
	}
	return otherwise
}

// Read reads one of the commit's files.
func (t *GitTree) Read(ctx context.Context, p string) ([]byte, error) {
	id, ok := t.blobs[p]
	if !ok {
		return nil, fmt.Errorf("%w: %q", ErrNotInTree, p)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return nil, errors.New("check: the git tree is closed")
	}
	if t.stdin == nil {
		t.start()
	}
	if _, err := io.WriteString(t.stdin, id+"\n"); err != nil {
		return nil, err
	}
	header, err := t.stdout.ReadString('\n')
	if err != nil {
		return nil, fmt.Errorf("cat-file: %w", err)
	}
	f := strings.Fields(header)
	if len(f) != 3 {
		return nil, fmt.Errorf("cat-file: %s: %w", strings.TrimSpace(header), fs.ErrNotExist)
	}
	size, err := strconv.Atoi(f[2])
	if err != nil || size < 0 {
		return nil, fmt.Errorf("cat-file: bad header %q", header)
	}
	data := make([]byte, size)
	if _, err := io.ReadFull(t.stdout, data); err != nil {
		return nil, err
	}
	if _, err := t.stdout.ReadByte(); err != nil { // the newline after the content
		return nil, err
	}
	return data, nil
}

// Close ends the batch process.
func (t *GitTree) Close() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return nil
	}
	t.closed = true
	if t.stdin == nil {
		return nil
	}
	_ = t.stdin.Close()
	var err error
	select {
	case err = <-t.done:
	case <-time.After(5 * time.Second):
		t.cancel()
		err = <-t.done
	}
	t.cancel()
	return err
}

// Stater is a Tree that can tell about one file without listing them all: Index.Update uses
// it after a save whose paths are known. ok is false when p is not a file of the tree.
type Stater interface {
	Stat(ctx context.Context, p string) (f File, ok bool, err error)
}

// Stat tells about one file of the folder (never following a link).
func (t dirTree) Stat(ctx context.Context, p string) (File, bool, error) {
	if !cleanRel(p) {
		return File{}, false, nil
	}
	r, err := os.OpenRoot(t.root)
	if err != nil {
		return File{}, false, err
	}
	defer r.Close()
	fi, err := r.Lstat(p)
	if errors.Is(err, fs.ErrNotExist) || (err == nil && !fi.Mode().IsRegular()) {
		return File{}, false, nil
	}
	if err != nil {
		return File{}, false, err
	}
	return File{Path: p, Size: fi.Size(), Version: strconv.FormatInt(fi.Size(), 10) + "-" + strconv.FormatInt(fi.ModTime().UnixNano(), 10)}, true, nil
}
