/**
 * The REST paths core signs and returns are the contract's (docs/api.md), filled in from
 * the generated route table.
 */
import t from 'tap';
import { downloadPath, generationStatusPath, restPath, templateDownloadPath, uploadPath } from '../../../core/src/protocol/index.js';

t.test('signed-URL targets and the status URL are the contract paths', async (t) => {
  t.equal(uploadPath('tpl_01J'), '/api/v1/templates/tpl_01J/upload');
  t.equal(templateDownloadPath('tpl_01J'), '/api/v1/templates/tpl_01J/download');
  t.equal(downloadPath('gen_01J'), '/api/v1/presentations/gen_01J/download');
  t.equal(generationStatusPath('gen_01J'), '/api/v1/presentations/gen_01J/status');
});

t.test('restPath fills every parameter and refuses what it cannot fill', async (t) => {
  t.equal(restPath('slidewright.v1.TemplateService/GetTemplateSlidePreview', { template_id: 'tpl_1', slide_number: 3 }), '/api/v1/templates/tpl_1/slides/3/preview');
  t.throws(() => restPath('slidewright.v1.TemplateService/GetTemplateSlide', { template_id: 'tpl_1' }), /needs slide_number/);
  t.throws(() => restPath('slidewright.v1.TemplateService/NoSuchRpc', {}), /no REST route/);
});
