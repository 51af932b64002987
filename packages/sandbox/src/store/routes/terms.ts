import { nextId, type TermRec } from '../model/state.js';
import type { Store } from '../model/store.js';
import { isPlainObject, slugify, uniqueSlug } from '../model/util.js';
import { registerCrud } from '../wp/crud.js';
import { RestError } from '../wp/errors.js';
import { filterIncludeExclude, pagedResult, searchMatch, sortByParams } from '../wp/list.js';
import { CONTEXT, type Specs, validateParams } from '../wp/params.js';
import { type Ctx, idParam, type Result, type Router, requireCap } from '../wp/router.js';

type Taxonomy = TermRec['taxonomy'];

interface TaxonomyDef {
  taxonomy: Taxonomy;
  base: string;
  hierarchical: boolean;
}

const DEFS: TaxonomyDef[] = [
  { taxonomy: 'product_cat', base: '/products/categories', hierarchical: true },
  { taxonomy: 'product_tag', base: '/products/tags', hierarchical: false },
];

function termCount(store: Store, t: TermRec): number {
  let n = 0;
  for (const p of store.state.products.values()) {
    if (p.status === 'trash') continue;
    if ((t.taxonomy === 'product_cat' ? p.categories : p.tags).includes(t.id)) n++;
  }
  return n;
}

export function presentTerm(store: Store, def: TaxonomyDef, t: TermRec): Record<string, unknown> {
  const links: Record<string, unknown> = {
    self: [{ href: store.restUrl(`${def.base}/${t.id}`) }],
    collection: [{ href: store.restUrl(def.base) }],
  };
  if (def.hierarchical) {
    if (t.parent) links.up = [{ href: store.restUrl(`${def.base}/${t.parent}`) }];
    return {
      id: t.id,
      name: t.name,
      slug: t.slug,
      parent: t.parent,
      description: t.description,
      display: t.display,
      image: t.image,
      menu_order: t.menu_order,
      count: termCount(store, t),
      _links: links,
    };
  }
  return {
    id: t.id,
    name: t.name,
    slug: t.slug,
    description: t.description,
    count: termCount(store, t),
    _links: links,
  };
}

function specsFor(def: TaxonomyDef, creating: boolean): Specs {
  const specs: Specs = {
    name: { type: 'string', required: creating },
    slug: { type: 'string' },
    description: { type: 'string' },
  };
  if (def.hierarchical) {
    specs.parent = { type: 'integer' };
    specs.display = { type: 'string', enum: ['default', 'products', 'subcategories', 'both'] };
    specs.image = { type: 'object', nullable: true };
    specs.menu_order = { type: 'integer' };
  }
  return specs;
}

function register(router: Router, store: Store, def: TaxonomyDef): void {
  const all = () => [...store.state.terms.values()].filter((t) => t.taxonomy === def.taxonomy);
  const find = (id: number) => {
    const t = store.state.terms.get(id);
    return t && t.taxonomy === def.taxonomy ? t : undefined;
  };
  const notFound = () => new RestError(404, 'woocommerce_rest_term_invalid', 'Resource does not exist.');

  const write = (t: TermRec, p: Record<string, unknown>) => {
    if (typeof p.name === 'string') {
      const name = p.name.trim();
      const clash = all().find(
        (o) =>
          o.id !== t.id &&
          o.name.toLowerCase() === name.toLowerCase() &&
          (!def.hierarchical || o.parent === (typeof p.parent === 'number' ? p.parent : t.parent)),
      );
      if (clash) {
        throw new RestError(
          400,
          'term_exists',
          def.hierarchical
            ? 'A term with the name provided already exists with this parent.'
            : 'A term with the name provided already exists in this taxonomy.',
          { resource_id: clash.id },
        );
      }
      t.name = name;
    }
    if (typeof p.description === 'string') t.description = p.description;
    if (def.hierarchical) {
      if (typeof p.parent === 'number') {
        if (p.parent !== 0 && !find(p.parent)) {
          throw new RestError(400, 'woocommerce_rest_term_invalid', 'Parent term does not exist.');
        }
        t.parent = p.parent;
      }
      if (typeof p.display === 'string') t.display = p.display;
      if (typeof p.menu_order === 'number') t.menu_order = p.menu_order;
      if (p.image === null) t.image = null;
      else if (isPlainObject(p.image) && typeof p.image.src === 'string') {
        const now = store.now();
        t.image = {
          id: typeof p.image.id === 'number' ? p.image.id : nextId(store.state, 'post'),
          src: p.image.src,
          name: typeof p.image.name === 'string' ? p.image.name : '',
          alt: typeof p.image.alt === 'string' ? p.image.alt : '',
          created: now,
          modified: now,
        };
      }
    }
    const wanted = typeof p.slug === 'string' && p.slug !== '' ? slugify(p.slug) : t.slug || slugify(t.name);
    t.slug = uniqueSlug(wanted, (s) => all().some((o) => o.slug === s && o.id !== t.id));
  };

  const list = (ctx: Ctx): Result => {
    const p = validateParams(ctx.params, {
      context: CONTEXT,
      page: { type: 'integer', min: 1 },
      per_page: { type: 'integer', min: 1, max: 100 },
      search: { type: 'string' },
      exclude: { type: 'array', items: { type: 'integer' } },
      include: { type: 'array', items: { type: 'integer' } },
      offset: { type: 'integer' },
      order: { type: 'string', enum: ['asc', 'desc'] },
      orderby: {
        type: 'string',
        enum: ['id', 'include', 'name', 'slug', 'term_group', 'description', 'count'],
      },
      hide_empty: { type: 'boolean' },
      parent: { type: 'integer' },
      product: { type: 'integer', nullable: true },
      slug: { type: 'string' },
    });
    ctx.params = p;
    requireCap(ctx, 'list');
    let items = filterIncludeExclude(all(), p);
    if (typeof p.search === 'string')
      items = items.filter((t) => searchMatch(p.search, t.name, t.slug, t.description));
    if (typeof p.slug === 'string') items = items.filter((t) => t.slug === p.slug);
    if (def.hierarchical && typeof p.parent === 'number') items = items.filter((t) => t.parent === p.parent);
    if (p.hide_empty === true) items = items.filter((t) => termCount(store, t) > 0);
    if (typeof p.product === 'number') {
      const prod = store.state.products.get(p.product);
      const ids = prod ? (def.taxonomy === 'product_cat' ? prod.categories : prod.tags) : [];
      items = items.filter((t) => ids.includes(t.id));
    }
    const keys: Record<string, (t: TermRec) => string | number> = {
      id: (t) => t.id,
      name: (t) => t.name,
      slug: (t) => t.slug,
      term_group: () => 0,
      description: (t) => t.description,
      count: (t) => termCount(store, t),
    };
    items = sortByParams(items, p, keys, { orderby: 'name', order: 'asc' });
    return pagedResult(ctx, items, (t) => presentTerm(store, def, t));
  };

  const create = (ctx: Ctx): Result => {
    const p = validateParams(ctx.params, specsFor(def, true));
    requireCap(ctx, 'create');
    const id = store.state.seq.term + 1;
    const t: TermRec = {
      id,
      taxonomy: def.taxonomy,
      name: '',
      slug: '',
      parent: 0,
      description: '',
      display: 'default',
      image: null,
      menu_order: 0,
    };
    write(t, p);
    nextId(store.state, 'term');
    store.state.terms.set(id, t);
    store.changed();
    return {
      status: 201,
      body: presentTerm(store, def, t),
      headers: { Location: store.restUrl(`${def.base}/${id}`) },
    };
  };

  const get = (ctx: Ctx): Result => {
    validateParams(ctx.params, { context: CONTEXT });
    requireCap(ctx, 'view');
    const t = find(idParam(ctx));
    if (!t) throw notFound();
    return { status: 200, body: presentTerm(store, def, t) };
  };

  const update = (ctx: Ctx): Result => {
    const p = validateParams(ctx.params, specsFor(def, false));
    requireCap(ctx, 'edit');
    const t = find(idParam(ctx));
    if (!t) throw notFound();
    const draft = structuredClone(t);
    write(draft, p);
    store.state.terms.set(t.id, draft);
    store.changed();
    return { status: 200, body: presentTerm(store, def, draft) };
  };

  const remove = (ctx: Ctx): Result => {
    const p = validateParams(ctx.params, { force: { type: 'boolean' } });
    requireCap(ctx, 'delete');
    if (p.force !== true) {
      throw new RestError(501, 'woocommerce_rest_trash_not_supported', 'Resource does not support trashing.');
    }
    const t = find(idParam(ctx));
    if (!t) throw notFound();
    const body = presentTerm(store, def, t);
    store.state.terms.delete(t.id);
    for (const prod of store.state.products.values()) {
      prod.categories = prod.categories.filter((c) => c !== t.id);
      prod.tags = prod.tags.filter((c) => c !== t.id);
    }
    for (const o of store.state.terms.values()) if (o.parent === t.id) o.parent = t.parent;
    store.changed();
    return { status: 200, body };
  };

  registerCrud(router, `/wc/v3${def.base}`, { list, create, get, update, delete: remove });
}

export function registerTerms(router: Router, store: Store): void {
  for (const def of DEFS) register(router, store, def);
}
