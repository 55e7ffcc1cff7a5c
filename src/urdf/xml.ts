// A minimal XML tree and serialiser. URDF needs only elements, attributes and comments; writing
// them directly keeps number formatting under our control (shortest round-trip decimal, never
// "Infinity") and makes escaping explicit: no model-supplied string can break the document.

export interface XmlElement {
  name: string;
  attributes: [string, string][];
  children: XmlNode[];
  /** Character content of an element without children (ros2_control's <plugin>, <param>). */
  text?: string;
}

export type XmlNode = XmlElement | { comment: string };

export function el(name: string, attributes: Record<string, string> = {}, children: XmlNode[] = []): XmlElement {
  return { name, attributes: Object.entries(attributes), children };
}

/** Characters XML 1.0 cannot carry at all (not even as references): C0 controls other than tab/LF/CR, lone surrogates, U+FFFE/U+FFFF. */
// eslint-disable-next-line no-control-regex
const INVALID_XML_CHARS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** True when `s` contains characters XML cannot represent. */
export const hasInvalidXmlChars = (s: string): boolean => {
  INVALID_XML_CHARS.lastIndex = 0;
  return INVALID_XML_CHARS.test(s);
};

/** Replaces characters XML cannot represent with U+FFFD. */
export const xmlSafe = (s: string): string => s.replace(INVALID_XML_CHARS, '\ufffd');

/**
 * Attribute value escaping. Tab, LF and CR are written as character references because a parser
 * normalises literal whitespace in attribute values to spaces.
 */
// eslint-disable-next-line no-control-regex
const NEEDS_ESCAPE = /[&<>"\u0000-\u001f\ud800-\udfff\ufffe\uffff]/;

export function escapeAttribute(s: string): string {
  // Nearly every value (numbers, names) needs nothing: one test instead of two replaces.
  if (!NEEDS_ESCAPE.test(s)) return s;
  return xmlSafe(s).replace(/[&<>"\t\n\r]/g, (c) => {
    switch (c) {
      case '&':
        return '&amp;';
      case '<':
        return '&lt;';
      case '>':
        return '&gt;';
      case '"':
        return '&quot;';
      case '\t':
        return '&#9;';
      case '\n':
        return '&#10;';
      default:
        return '&#13;';
    }
  });
}

/** Character content: markup characters as references. */
const escapeText = (s: string): string => xmlSafe(s).replace(/[&<>]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&gt;'));

/** Comment text: "--" is not allowed inside a comment and a trailing "-" would merge with the terminator. */
const escapeComment = (s: string): string => xmlSafe(s).replace(/-(?=-)/g, '- ').replace(/-$/, '- ');

export function serialize(root: XmlElement): string {
  const out: string[] = ['<?xml version="1.0" encoding="UTF-8"?>\n'];
  write(root, 0, out);
  return out.join('');
}

/** One element (or comment) without the XML declaration, indented as if `depth` levels deep: a block to splice into a document. */
export function serializeFragment(node: XmlNode, depth: number): string {
  const out: string[] = [];
  write(node, depth, out);
  return out.join('');
}

function write(node: XmlNode, depth: number, out: string[]): void {
  const indent = '  '.repeat(depth);
  if ('comment' in node) {
    out.push(`${indent}<!-- ${escapeComment(node.comment)} -->\n`);
    return;
  }
  out.push(indent, '<', node.name);
  for (const [k, v] of node.attributes) out.push(' ', k, '="', escapeAttribute(v), '"');
  if (node.text !== undefined && node.children.length === 0) {
    out.push('>', escapeText(node.text), '</', node.name, '>\n');
    return;
  }
  if (node.children.length === 0) {
    out.push('/>\n');
    return;
  }
  out.push('>\n');
  for (const c of node.children) write(c, depth + 1, out);
  out.push(indent, '</', node.name, '>\n');
}
