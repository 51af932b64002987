import { batchHandler } from './batch.js';
import { CREATABLE, type Ctx, DELETABLE, EDITABLE, type Handler, READABLE, type Router } from './router.js';

export interface CrudHandlers {
  list: Handler;
  create: Handler;
  get: Handler;
  update: Handler;
  delete: Handler;
}

/**
 * The route table of a WC_REST_CRUD_Controller: the collection (list, create), `/<id>` (get, update, delete)
 * and `/batch`, whose items go through the same create/update/delete handlers.
 */
export function registerCrud(router: Router, base: string, h: CrudHandlers): void {
  router.add(base, READABLE, h.list);
  router.add(base, CREATABLE, h.create);
  router.add(`${base}/(?P<id>[\\d]+)`, READABLE, h.get);
  router.add(`${base}/(?P<id>[\\d]+)`, EDITABLE, h.update);
  router.add(`${base}/(?P<id>[\\d]+)`, DELETABLE, h.delete);
  router.add(`${base}/batch`, EDITABLE, batchHandler(h));
}

/** A create body that names an `id` is refused ("Cannot create existing ..."); `0` and `''` name none. */
export function namesId(ctx: Ctx): boolean {
  const id = ctx.params.id;
  return id !== undefined && id !== null && id !== 0 && id !== '';
}
