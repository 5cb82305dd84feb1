// A small XML well-formedness check (enough for the SVG we write): nesting, quoting, entities, no stray markup.

export function xmlErrors(xml: string): string[] {
  const errors: string[] = [];
  const stack: string[] = [];
  const entity = /&(amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);/y;
  let i = 0;
  const text = (end: number): void => {
    for (let j = i; j < end; j++) {
      if (xml[j] === '&') {
        entity.lastIndex = j;
        if (!entity.test(xml)) errors.push(`bad entity at ${j}`);
      } else if (xml[j] === '>') errors.push(`stray '>' at ${j}`);
    }
  };
  if (/^<\?xml/.test(xml)) i = xml.indexOf('?>') + 2;
  while (i < xml.length) {
    const lt = xml.indexOf('<', i);
    if (lt < 0) { text(xml.length); break; }
    text(lt);
    const gt = xml.indexOf('>', lt);
    if (gt < 0) { errors.push(`unclosed tag at ${lt}`); break; }
    const tag = xml.slice(lt + 1, gt);
    if (tag.startsWith('/')) {
      const name = tag.slice(1).trim();
      if (stack.pop() !== name) errors.push(`mismatched </${name}> at ${lt}`);
    } else {
      const selfClosing = tag.endsWith('/');
      const body = selfClosing ? tag.slice(0, -1) : tag;
      const m = /^([A-Za-z_][\w:.-]*)((?:\s+[A-Za-z_][\w:.-]*="[^"<]*")*)\s*$/.exec(body);
      if (!m) errors.push(`malformed tag <${tag.slice(0, 60)}> at ${lt}`);
      else {
        for (const a of m[2].matchAll(/="([^"]*)"/g)) {
          if (/&(?!(amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);)/.test(a[1])) errors.push(`bad entity in an attribute at ${lt}`);
        }
        if (!selfClosing) stack.push(m[1]);
      }
    }
    i = gt + 1;
  }
  if (stack.length > 0) errors.push(`unclosed elements: ${stack.join(', ')}`);
  return errors;
}
