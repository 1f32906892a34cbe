/** A posted section, urlencoded or multipart, as plain values: the page's control fields, the answer fields and the files. */
import type { FastifyRequest } from 'fastify';
import { isRecord } from '../../forms/index.js';
import type { Answers, ResolvedForm } from '../../forms/index.js';
import type { FieldValues } from './read-answers.js';

export interface PostedFile {
  questionId: string;
  name: string;
  mime: string;
  data: Buffer;
}

export interface PostedSection {
  sectionIndex: number;
  /** save: a public link's "save and continue later" (no check of the section, like back) */
  action: 'next' | 'back' | 'save';
  shown: Set<string>;
  values: FieldValues;
  files: PostedFile[];
  /** questions whose file was over the size limit (the part was cut) */
  tooLarge: Set<string>;
  /** public link: the earlier sections' answers the page carried (the submit validates them all again) */
  state: Answers;
  /** public link: the submission token the page was rendered with */
  submissionToken: string | undefined;
}

async function collect(request: FastifyRequest): Promise<{ fields: Map<string, string[]>; files: PostedFile[]; tooLarge: Set<string> }> {
  const fields = new Map<string, string[]>();
  const files: PostedFile[] = [];
  const tooLarge = new Set<string>();
  const add = (name: string, value: string) => fields.set(name, [...(fields.get(name) ?? []), value]);
  if (request.isMultipart()) {
    for await (const part of request.parts()) {
      const questionId = part.fieldname.startsWith('q.') ? part.fieldname.slice(2) : '';
      if (part.type === 'field') add(part.fieldname, String(part.value));
      else if (!part.filename) await part.toBuffer(); // an empty file input: drain it
      else {
        try {
          const data = await part.toBuffer();
          if (data.length > 0) files.push({ questionId, name: part.filename, mime: part.mimetype, data });
        } catch (error) {
          if ((error as { code?: string }).code !== 'FST_REQ_FILE_TOO_LARGE') throw error;
          tooLarge.add(questionId);
        }
      }
    }
  } else if (request.body instanceof URLSearchParams) {
    for (const [name, value] of request.body) add(name, value);
  }
  return { fields, files, tooLarge };
}

function parseState(raw: string | undefined): Answers {
  try {
    const value: unknown = raw ? JSON.parse(raw) : {};
    return isRecord(value) ? (value as Answers) : {};
  } catch {
    return {};
  }
}

export async function readPost(request: FastifyRequest, content: ResolvedForm): Promise<PostedSection> {
  const { fields, files, tooLarge } = await collect(request);
  const one = (name: string) => fields.get(name)?.[0];
  const asked = Number(one('_section'));
  const sectionIndex = Number.isInteger(asked) && asked >= 0 && asked < content.sections.length ? asked : 0;
  return {
    sectionIndex,
    action: one('_action') === 'back' ? 'back' : one('_action') === 'save' ? 'save' : 'next',
    shown: new Set((one('_shown') ?? '').split(',').filter(Boolean)),
    values: (name) => fields.get(name) ?? [],
    files,
    tooLarge,
    state: parseState(one('_answers')),
    submissionToken: one('_token'),
  };
}
