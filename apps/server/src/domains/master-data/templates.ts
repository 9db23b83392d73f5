import { API, IMPORT_TEMPLATES } from '@trainlab/contract';
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../platform/deps';
import { templateFor, XLSX_CONTENT_TYPE } from '../../platform/excel';
import { defineCall } from '../../platform/http/define-call';

/** /download-template {type}: the .xlsx template of an Excel import (header row and a sample row). */
export function templateRoutes(app: FastifyInstance, deps: Deps): void {
  const cache = new Map<string, Buffer>();
  defineCall(app, deps, API.downloadTemplate, async ({ body, reply }) => {
    const template = IMPORT_TEMPLATES[body.type];
    let file = cache.get(body.type);
    if (!file) {
      file = templateFor(template.columns, template.sample);
      cache.set(body.type, file);
    }
    reply
      .type(XLSX_CONTENT_TYPE)
      .header('content-disposition', `attachment; filename="${body.type}-template.xlsx"`)
      .header('cache-control', 'no-store');
    return file;
  });
}
