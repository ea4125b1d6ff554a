package app

import (
	"bufio"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"sort"
	"strings"
	"testing"
	"time"
)

// A generated repository shaped like a real website monorepo (issue 30's: 7,228 commits,
// 23 branches, nested locale files, Markdown/MDX pages, TypeScript, a few MB of binaries),
// made with one `git fast-import` so thousands of commits take seconds. The content is
// deterministic (a fixed seed).

// monorepoShape is what genMonorepo makes.
type monorepoShape struct {
	Commits  int // on master, the first one adding every file
	Branches int // besides master, each a few commits of its own off a point of master's history
}

// monorepoLanguages are the site's languages: a folder of pages and a locale file each.
var monorepoLanguages = []string{"en", "fr", "de", "es", "ja", "zh-cn", "pt-br", "ko", "it", "ru"}

// monorepoPhrase is in exactly one file of the repository: a Markdown page, never edited
// after the first commit.
const (
	monorepoPhrase     = "Wandering albatross charter"
	monorepoPhraseFile = "apps/site/pages/fr/about/governance.md"
)

var monorepoWords = strings.Fields(`node runtime event loop stream buffer module package release
security update download install version support community foundation project contributor
guide tutorial learn documentation module import export async await promise callback error
server client request response header body file system path process thread worker cluster
performance memory garbage collector profiler debugger inspector test runner assert build
website page blog post author date title summary section link image table code example`)

// genMonorepo writes the repository as a bare repository at bare (master checked out as HEAD)
// and returns the files of master's last tree, path → whether it is text.
func genMonorepo(t *testing.T, bare string, shape monorepoShape) map[string]bool {
	t.Helper()
	started := time.Now()
	gitT(t, "", "init", "-q", "--bare", "--initial-branch=master", bare)
	rng := rand.New(rand.NewSource(30))
	para := func(n int) string {
		var b strings.Builder
		for i := 0; i < n; i++ {
			w := monorepoWords[rng.Intn(len(monorepoWords))]
			if i == 0 {
				w = strings.ToUpper(w[:1]) + w[1:]
			}
			b.WriteString(w)
			if i == n-1 {
				b.WriteString(".")
			} else {
				b.WriteString(" ")
			}
		}
		return b.String()
	}
	// The files and how each is written at a given revision.
	type file struct {
		path string
		text bool
		gen  func(rev int) []byte
	}
	var files []file
	page := func(lang, p string, mdx bool) file {
		return file{path: p, text: true, gen: func(rev int) []byte {
			var b strings.Builder
			fmt.Fprintf(&b, "---\ntitle: %s\nlayout: page\nauthor: %s\ndate: 2024-%02d-%02dT10:00:00.000Z\n---\n\n", para(4), para(2), 1+rev%12, 1+rev%28)
			if mdx {
				b.WriteString("import { Callout } from '@node-core/ui-components';\n\n")
			}
			fmt.Fprintf(&b, "# %s\n\n", para(5))
			for i := 0; i < 6+rng.Intn(10); i++ {
				b.WriteString(para(30 + rng.Intn(40)))
				b.WriteString("\n\n")
				if mdx && i == 2 {
					fmt.Fprintf(&b, "<Callout kind=\"info\">%s</Callout>\n\n", para(12))
				}
				if i%3 == 1 {
					fmt.Fprintf(&b, "```js\nconst %s = require('node:%s');\n```\n\n", monorepoWords[rng.Intn(len(monorepoWords))], monorepoWords[rng.Intn(len(monorepoWords))])
				}
			}
			if p == monorepoPhraseFile {
				b.WriteString("The " + monorepoPhrase + " describes how the steering committee meets.\n")
			}
			fmt.Fprintf(&b, "<!-- revision %d (%s) -->\n", rev, lang)
			return []byte(b.String())
		}}
	}
	sections := []string{"about", "docs", "learn", "download", "blog/announcements", "blog/events"}
	for li, lang := range monorepoLanguages {
		n := 110
		if li == 0 {
			n = 150
		}
		for i := 0; i < n; i++ {
			sec := sections[i%len(sections)]
			name := fmt.Sprintf("%s-%d", monorepoWords[i%len(monorepoWords)], i)
			if sec == "about" && i == 0 {
				name = "governance"
			}
			mdx := i%4 == 3 && name != "governance"
			ext := ".md"
			if mdx {
				ext = ".mdx"
			}
			files = append(files, page(lang, "apps/site/pages/"+lang+"/"+sec+"/"+name+ext, mdx))
		}
	}
	for i := 0; i < 500; i++ { // release notes, English only
		files = append(files, page("en", fmt.Sprintf("apps/site/pages/en/blog/release/v%d.%d.%d.md", 4+i/40, (i/8)%5, i%8), false))
	}
	// Nested locale files: section → group → key.
	for _, lang := range monorepoLanguages {
		files = append(files, file{path: "packages/i18n/src/locales/" + lang + ".json", text: true, gen: func(rev int) []byte {
			var b strings.Builder
			b.WriteString("{\n")
			for s := 0; s < 12; s++ {
				fmt.Fprintf(&b, "  \"%s\": {\n", []string{"layouts", "components", "pages", "navigation", "footer", "blog", "download", "learn", "about", "home", "search", "errors"}[s])
				for g := 0; g < 8; g++ {
					fmt.Fprintf(&b, "    \"%s%d\": {\n", monorepoWords[(s*8+g)%len(monorepoWords)], g)
					for k := 0; k < 7; k++ {
						comma := ","
						if k == 6 {
							comma = ""
						}
						fmt.Fprintf(&b, "      \"%s%d\": \"%s (%s %d)\"%s\n", monorepoWords[(g*7+k)%len(monorepoWords)], k, para(6), lang, rev, comma)
					}
					if g == 7 {
						b.WriteString("    }\n")
					} else {
						b.WriteString("    },\n")
					}
				}
				if s == 11 {
					b.WriteString("  }\n")
				} else {
					b.WriteString("  },\n")
				}
			}
			b.WriteString("}\n")
			return []byte(b.String())
		}})
	}
	// TypeScript sources: components (index.tsx, a CSS module, a story) and utilities.
	tsx := func(name string) func(int) []byte {
		return func(rev int) []byte {
			var b strings.Builder
			fmt.Fprintf(&b, "import type { FC, PropsWithChildren } from 'react';\nimport styles from './index.module.css';\n\n")
			fmt.Fprintf(&b, "type %sProps = { title: string; kind?: 'default' | 'neutral' };\n\n", name)
			fmt.Fprintf(&b, "// %s\nconst %s: FC<PropsWithChildren<%sProps>> = ({ title, kind = 'default', children }) => (\n", para(10), name, name)
			fmt.Fprintf(&b, "  <div className={styles[kind]} data-revision=\"%d\">\n    <h2>{title}</h2>\n    {children}\n  </div>\n);\n\nexport default %s;\n", rev, name)
			return []byte(b.String())
		}
	}
	for i := 0; i < 160; i++ {
		name := strings.ToUpper(monorepoWords[i%len(monorepoWords)][:1]) + monorepoWords[i%len(monorepoWords)][1:] + fmt.Sprint(i)
		dir := "apps/site/components/" + []string{"Common", "Downloads", "Blog", "Learn", "Layout"}[i%5] + "/" + name
		if i%2 == 1 {
			dir = "packages/ui-components/src/" + []string{"Common", "Containers", "Icons"}[i%3] + "/" + name
		}
		files = append(files,
			file{path: dir + "/index.tsx", text: true, gen: tsx(name)},
			file{path: dir + "/index.module.css", text: true, gen: func(rev int) []byte {
				return []byte(fmt.Sprintf(".default {\n  @apply flex flex-col gap-%d;\n}\n\n.neutral {\n  @apply text-neutral-%d;\n}\n", rev%8, 100*(1+rev%9)))
			}},
			file{path: dir + "/index.stories.tsx", text: true, gen: func(rev int) []byte {
				return []byte(fmt.Sprintf("import type { Meta as MetaObj, StoryObj } from '@storybook/react';\nimport %s from './index';\n\nexport const Default: StoryObj<typeof %s> = { args: { title: '%s' } };\n\nexport default { component: %s } as MetaObj;\n// %d\n", name, name, para(3), name, rev))
			}})
	}
	for i := 0; i < 80; i++ {
		files = append(files, file{path: fmt.Sprintf("apps/site/util/%s%d.ts", monorepoWords[i%len(monorepoWords)], i), text: true, gen: func(rev int) []byte {
			return []byte(fmt.Sprintf("// %s\nexport const %s%d = (input: string): string =>\n  input.trim().toLowerCase() + '-%d';\n", para(12), monorepoWords[i%len(monorepoWords)], i, rev))
		}})
	}
	// The top and a large lock file.
	static := map[string]string{
		"README.md":                 "# Website monorepo\n\n" + para(40) + "\n",
		"LICENSE":                   "MIT License\n\n" + para(120) + "\n",
		".nvmrc":                    "22\n",
		".editorconfig":             "root = true\n\n[*]\nindent_style = space\nindent_size = 2\n",
		"package.json":              "{\n  \"name\": \"website-monorepo\",\n  \"private\": true,\n  \"scripts\": { \"build\": \"turbo build\" }\n}\n",
		"turbo.json":                "{\n  \"$schema\": \"https://turbo.build/schema.json\",\n  \"tasks\": { \"build\": {} }\n}\n",
		"apps/site/tsconfig.json":   "{\n  // Next.js\n  \"compilerOptions\": {\n    \"target\": \"ES2022\",\n    \"jsx\": \"preserve\", // kept for Next\n    \"strict\": true\n  }\n}\n",
		"apps/site/next.config.mjs": "export default { output: 'export' };\n",
	}
	names := make([]string, 0, len(static))
	for p := range static {
		names = append(names, p)
	}
	sort.Strings(names) // the same files in the same order every time
	for _, p := range names {
		s := static[p]
		files = append(files, file{path: p, text: true, gen: func(int) []byte { return []byte(s) }})
	}
	files = append(files, file{path: "pnpm-lock.yaml", text: true, gen: func(rev int) []byte {
		var b strings.Builder
		fmt.Fprintf(&b, "lockfileVersion: '9.0'\n# %d\n\npackages:\n\n", rev)
		for i := 0; i < 3000; i++ {
			fmt.Fprintf(&b, "  '@scope/%s-%d@%d.%d.%d':\n    resolution: {integrity: sha512-%x}\n    engines: {node: '>=18'}\n\n", monorepoWords[i%len(monorepoWords)], i, i%20, i%7, rev%10, rng.Uint64())
		}
		return []byte(b.String())
	}})
	// A few MB of binaries: images and two documents.
	binary := func(size int, magic string) func(int) []byte {
		return func(int) []byte {
			b := make([]byte, size)
			rng.Read(b)
			copy(b, magic)
			return b
		}
	}
	for i := 0; i < 40; i++ {
		files = append(files, file{path: fmt.Sprintf("apps/site/public/static/images/%s-%d.png", monorepoWords[i%len(monorepoWords)], i), gen: binary(60<<10+rng.Intn(60<<10), "\x89PNG\r\n\x1a\n")})
	}
	files = append(files,
		file{path: "apps/site/public/static/documents/2016-survey-report.pdf", gen: binary(600<<10, "%PDF-1.4\n")},
		file{path: "apps/site/public/static/documents/casestudy-netflix.pdf", gen: binary(400<<10, "%PDF-1.4\n")})

	// What later commits edit: pages (most), locale files, sources; never the phrase's file.
	var editable []int
	for i, f := range files {
		if f.text && f.path != monorepoPhraseFile && f.path != "pnpm-lock.yaml" {
			editable = append(editable, i)
		}
	}

	cmd := exec.Command("git", "fast-import", "--quiet", "--done")
	cmd.Dir = bare
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+t.TempDir())
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriterSize(stdin, 1<<20)
	when := time.Date(2015, 1, 1, 9, 0, 0, 0, time.UTC).Unix()
	mark := 0
	writeFile := func(f file, rev int) {
		data := f.gen(rev)
		fmt.Fprintf(w, "M 100644 inline %s\ndata %d\n", f.path, len(data))
		w.Write(data)
		w.WriteString("\n")
	}
	commit := func(ref string, from int, msg string, edits func()) int {
		mark++
		when += 3600 + int64(rng.Intn(20000))
		who := []string{"Ada <ada@example.org>", "Brian <brian@example.org>", "Chen <chen@example.org>", "Dana <dana@example.org>"}[rng.Intn(4)]
		fmt.Fprintf(w, "commit %s\nmark :%d\nauthor %s %d +0000\ncommitter %s %d +0000\ndata %d\n%s\n", ref, mark, who, when, who, when, len(msg), msg)
		if from > 0 {
			fmt.Fprintf(w, "from :%d\n", from)
		}
		edits()
		w.WriteString("\n")
		return mark
	}
	rev := map[int]int{} // file index → its last revision
	edit := func(n int) {
		for j := 0; j < n; j++ {
			i := editable[rng.Intn(len(editable))]
			rev[i]++
			writeFile(files[i], rev[i])
		}
	}
	master := make([]int, 0, shape.Commits)
	master = append(master, commit("refs/heads/master", 0, "chore: initial import", func() {
		for _, f := range files {
			writeFile(f, 0)
		}
	}))
	scopes := []string{"i18n", "site", "ui", "blog", "deps", "docs"}
	for c := 1; c < shape.Commits; c++ {
		msg := fmt.Sprintf("%s(%s): %s", []string{"feat", "fix", "chore", "docs"}[rng.Intn(4)], scopes[rng.Intn(len(scopes))], para(5))
		master = append(master, commit("refs/heads/master", master[len(master)-1], msg, func() { edit(1 + rng.Intn(3)) }))
	}
	for b := 0; b < shape.Branches; b++ {
		ref := fmt.Sprintf("refs/heads/%s-%d", []string{"feat/i18n", "fix/site", "chore/deps", "docs/learn"}[b%4], b)
		from := master[len(master)-1-rng.Intn(len(master)/2)]
		for c := 0; c < 2+rng.Intn(6); c++ {
			from = commit(ref, from, "wip: "+para(4), func() { edit(1 + rng.Intn(2)) })
		}
	}
	w.WriteString("done\n")
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	stdin.Close()
	if err := cmd.Wait(); err != nil {
		t.Fatalf("git fast-import: %v\n%s", err, stderr.String())
	}
	// Packed as a host keeps its repositories (fast-import's pack is not one clone would send).
	gitT(t, bare, "repack", "-a", "-d", "-q")
	tree := map[string]bool{}
	for _, f := range files {
		tree[f.path] = f.text
	}
	t.Logf("generated repository: %d commits on master, %d other branches, %d files, in %s",
		shape.Commits, shape.Branches, len(files), time.Since(started).Round(time.Millisecond))
	return tree
}
