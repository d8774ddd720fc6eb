import { type X2jOptions, XMLParser, XMLValidator } from 'fast-xml-parser';
import { badRequest } from '../../platform/errors.js';
import { MAX_XML_DEPTH } from './xml-check.js';

export const XML_WITH_DTD = 'XML with a DTD or entities is not accepted.';

/**
 * The one way uploaded XML is read. A DTD is refused outright, so no entity can be defined
 * (no billion laughs, no external entities), and the parser never expands entities or converts
 * values: the readers decode the predefined entities themselves, so text stays exactly as written.
 */
export function safeXmlParser(xml: string, what: string, options: Partial<X2jOptions> = {}): XMLParser {
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) throw badRequest(XML_WITH_DTD);
  const valid = XMLValidator.validate(xml);
  if (valid !== true) throw badRequest(`This ${what} is not well-formed: ${valid.err.msg} (line ${valid.err.line}).`);
  return new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '@',
    removeNSPrefix: true,
    processEntities: false,
    htmlEntities: false,
    parseTagValue: false,
    parseAttributeValue: false,
    trimValues: false,
    // checkXmlText refused anything deeper before the parser runs; the parser's own default is 100.
    maxNestedTags: MAX_XML_DEPTH,
    ...options,
  });
}
