// Every response the bot receives is held to openapi.yaml: its status must be one the operation
// documents, its Content-Type one that status documents, and its JSON body must match that
// content's schema (JSON Schema 2020-12, the dialect of OpenAPI 3.1), checked by Ajv.
import { readFileSync } from "node:fs";
import { Ajv2020 } from "ajv/dist/2020.js";
import type { ValidateFunction } from "ajv/dist/2020.js";
import ajvFormats from "ajv-formats";
import type { Middleware } from "openapi-fetch";
import { parse } from "yaml";

const SPEC_ID = "openapi.json";
// OpenAPI's own words inside a schema, which JSON Schema does not know: annotations only
const OPENAPI_KEYWORDS = ["discriminator", "example", "xml", "externalDocs"];
// the top of an OpenAPI document, which is no schema: the schemas are found inside it by pointer
const DOCUMENT_KEYWORDS = ["openapi", "info", "jsonSchemaDialect", "servers", "paths", "webhooks",
  "components", "security", "tags"];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function pointer(...tokens: string[]): string {
  return tokens.map((token) => "/" + encodeURIComponent(token.replaceAll("~", "~0").replaceAll("/", "~1"))).join("");
}

export class SpecValidator {
  readonly violations: string[] = [];
  checked = 0;
  private readonly paths: Record<string, unknown>;
  private readonly ajv = new Ajv2020({ allErrors: true, strict: true, strictTypes: false });
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(specPath: string) {
    const spec: unknown = parse(readFileSync(specPath, "utf8"));
    if (!isRecord(spec) || !isRecord(spec["paths"])) {
      throw new Error(`${specPath} is not an OpenAPI document`);
    }
    this.paths = spec["paths"];
    ajvFormats.default(this.ajv);
    this.ajv.addVocabulary([...OPENAPI_KEYWORDS, ...DOCUMENT_KEYWORDS]);
    this.ajv.addSchema({ ...spec, $id: SPEC_ID });
  }

  middleware(): Middleware {
    return {
      onResponse: async ({ request, response, schemaPath }) => {
        await this.check(request.method, schemaPath, response.clone());
        return undefined;
      },
    };
  }

  async check(method: string, path: string, response: Response): Promise<void> {
    this.checked += 1;
    const where = `${method} ${path} -> ${response.status}`;
    const operation = this.paths[path];
    const verb = method.toLowerCase();
    const responses = isRecord(operation) && isRecord(operation[verb]) ? operation[verb]["responses"] : undefined;
    if (!isRecord(responses)) {
      this.violations.push(`${where}: the spec has no such operation`);
      return;
    }
    const status = [String(response.status), `${String(response.status).charAt(0)}XX`, "default"]
      .find((key) => key in responses);
    const documented = status === undefined ? undefined : responses[status];
    if (status === undefined || !isRecord(documented)) {
      this.violations.push(`${where}: a status the operation does not document`);
      return;
    }
    const body = await response.text();
    const content = documented["content"];
    if (!isRecord(content)) {
      if (body !== "") {
        this.violations.push(`${where}: a body where the spec documents none`);
      }
      return;
    }
    const mediaType = (response.headers.get("Content-Type") ?? "").split(";")[0]?.trim() ?? "";
    const media = content[mediaType];
    if (!isRecord(media)) {
      this.violations.push(`${where}: Content-Type ${mediaType} is not documented for this status`);
      return;
    }
    if (!mediaType.endsWith("json") || !("schema" in media)) {
      return;
    }
    const ref = SPEC_ID + "#" + pointer("paths", path, verb, "responses", status, "content", mediaType, "schema");
    let validate = this.compiled.get(ref);
    if (validate === undefined) {
      validate = this.ajv.compile({ $ref: ref });
      this.compiled.set(ref, validate);
    }
    let value: unknown;
    try {
      value = JSON.parse(body);
    } catch {
      this.violations.push(`${where}: the body is not JSON: ${body.slice(0, 200)}`);
      return;
    }
    if (!validate(value)) {
      this.violations.push(`${where}: ${this.ajv.errorsText(validate.errors, { separator: "; " })}`.slice(0, 2000));
    }
  }
}
