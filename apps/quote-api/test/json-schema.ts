import Ajv from 'ajv';
import addFormats from 'ajv-formats';

/**
 * A draft-07 validator (the draft the MCP SDK writes tool schemas in) that refuses unknown keywords and formats;
 * `example` is the one annotation our contracts add.
 */
export function strictAjv(): Ajv {
  const ajv = new Ajv({ strict: true, allErrors: true });
  addFormats(ajv);
  ajv.addKeyword({ keyword: 'example', schemaType: ['string', 'number', 'boolean', 'object', 'array', 'null'] });
  return ajv;
}
