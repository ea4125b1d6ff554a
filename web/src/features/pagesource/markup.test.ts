import { describe, expect, it } from 'vitest';
import { markupProblem } from './markup';

describe('markupProblem', () => {
  it('accepts balanced markup, void and self-closed tags, comments and scripts', () => {
    expect(markupProblem('<div class="a"><p>Hi<br><img src="x.png" alt="">text</p><hr/></div>')).toBeNull();
    expect(
      markupProblem('<!-- <div> --><script>if (a < b) { x = "</div>"; }</script><ul><li>one<li>two</ul>'),
    ).toBeNull();
    expect(markupProblem('<!DOCTYPE html><html><body><section></section></body></html>')).toBeNull();
  });
  it('finds a doubled closing tag and an element left open', () => {
    expect(markupProblem('<div>\n<p>Hello</p></p>\n</div>')).toEqual({ kind: 'unexpected-close', tag: 'p', line: 2 });
    expect(markupProblem('<section>\n<div>text</section>')).toEqual({ kind: 'unclosed', tag: 'div', line: 2 });
    expect(markupProblem('<main><span>x</main>')).toEqual({ kind: 'unclosed', tag: 'span', line: 1 });
    expect(markupProblem('<div><div></div>')).toEqual({ kind: 'unclosed', tag: 'div', line: 1 });
  });
});

describe('markupProblem on template syntax', () => {
  it('reads a tag with handlebars inside and a quoted >', () => {
    expect(markupProblem('<ul><li><a href="{{link}}"{{#if t}} target="_blank"{{/if}}>x</a></li></ul>')).toBeNull();
    expect(markupProblem('<div title="a > b"><span>x</span></div>')).toBeNull();
  });
});
