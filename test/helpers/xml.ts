// A small well-formedness checker for the SVG and HTML jwsim writes (no XML parser dependency).

/**
 * A small checker for the XML we write: every tag closes in order, attributes are quoted,
 * and text holds no raw '<' or bare '&' (only the five named entities and numeric ones).
 */
export function checkXml(text: string): string[] {
  const problems: string[] = [];
  const stack: string[] = [];
  const entity = /^&(amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);/;
  const checkText = (s: string, where: number) => {
    for (let i = s.indexOf('&'); i >= 0; i = s.indexOf('&', i + 1)) if (!entity.test(s.slice(i))) problems.push(`bare & at ${where + i}`);
    if (s.includes('>')) problems.push(`raw > at ${where}`);
  };
  let i = 0;
  let roots = 0;
  while (i < text.length) {
    const lt = text.indexOf('<', i);
    if (lt < 0) {
      checkText(text.slice(i), i);
      break;
    }
    checkText(text.slice(i, lt), i);
    const gt = text.indexOf('>', lt);
    if (gt < 0) {
      problems.push(`unclosed tag at ${lt}`);
      break;
    }
    const tag = text.slice(lt + 1, gt);
    if (tag.startsWith('/')) {
      const name = tag.slice(1).trim();
      const open = stack.pop();
      if (open !== name) problems.push(`</${name}> closes <${open}> at ${lt}`);
    } else {
      const m = /^([A-Za-z][\w:-]*)((?:\s+[\w:-]+="[^"<]*")*)\s*(\/?)$/.exec(tag);
      if (!m) problems.push(`bad tag <${tag.slice(0, 60)}> at ${lt}`);
      else {
        const attrs = m[2].match(/[\w:-]+="[^"]*"/g) ?? [];
        for (const a of attrs) checkText(a.slice(a.indexOf('"') + 1, -1), lt);
        const names = attrs.map((a) => a.slice(0, a.indexOf('=')));
        if (new Set(names).size !== names.length) problems.push(`repeated attribute in <${m[1]}> at ${lt}`);
        if (!m[3]) {
          if (stack.length === 0) roots++;
          stack.push(m[1]);
        } else if (stack.length === 0) roots++;
      }
    }
    i = gt + 1;
  }
  if (stack.length) problems.push(`unclosed: ${stack.join(' > ')}`);
  if (roots !== 1) problems.push(`${roots} root elements`);
  return problems;
}
