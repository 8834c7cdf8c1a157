/** Reading the previews' SVG in tests: parsed with an XML parser (attributes by name), and WCAG contrast of two colours. */
import { XMLParser, XMLValidator } from 'fast-xml-parser';

/** The root `<svg>` of a document, attributes unprefixed; throws when the XML is not well formed. */
export function parseSvg(svg: string): any {
  const valid = XMLValidator.validate(svg);
  if (valid !== true) throw new Error(`invalid XML: ${JSON.stringify(valid)}`);
  return new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(svg).svg;
}

/** WCAG contrast ratio of two #rrggbb colours. */
export function contrast(a: string, b: string): number {
  const luminance = (hex: string) => {
    const [r, g, bl] = [1, 3, 5].map((i) => {
      const c = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}
