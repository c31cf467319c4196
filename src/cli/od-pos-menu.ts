// A butcher shop's menu as an Open Delivery `Merchant` (GET /v1/merchant, D29), served by the
// sandbox Open Delivery POS (`cleaver sandbox od-pos`): cuts by the kilo, burgers and charcoal by
// the unit, categories, item offers, and option groups ("tipo de corte", "tempero", "ponto da
// carne") with items used only as options. Ids are uuids as the standard asks, derived from names
// so every run serves the same ones. Typed by the Open Delivery schemas; the tests validate it.
import { uuidV5 } from '../lib/ids.js';
import type { OdMerchant } from '../modules/opendelivery/index.js';

const NAMESPACE = '6f1c2a8e-3b4d-4e5f-9a0b-1c2d3e4f5a6b';
/** A stable uuid per kind and name. */
export const odId = (kind: string, name: string) => uuidV5(`${kind}:${name}`, NAMESPACE);

/** CNPJ + uuid, as Open Delivery recommends for merchant ids. */
export const OD_SANDBOX_MERCHANT_ID = `22815773000169-${odId('merchant', 'acougue-boi-na-brasa')}`;

interface MenuItem {
  key: string;
  name: string;
  description: string;
  unit: 'KG' | 'UN';
  price: number;
  category: string;
  options?: string[];
  ean?: string;
}

const ITEMS: MenuItem[] = [
  {
    key: 'picanha',
    name: 'Picanha',
    description: 'Picanha bovina maturada, peça com capa de gordura',
    unit: 'KG',
    price: 89.9,
    category: 'bovinos',
    options: ['corte', 'tempero'],
  },
  {
    key: 'fraldinha',
    name: 'Fraldinha',
    description: 'Fraldinha bovina para churrasco',
    unit: 'KG',
    price: 54.9,
    category: 'bovinos',
    options: ['corte', 'tempero'],
  },
  {
    key: 'alcatra',
    name: 'Alcatra',
    description: 'Miolo de alcatra',
    unit: 'KG',
    price: 49.9,
    category: 'bovinos',
    options: ['corte'],
  },
  {
    key: 'costela-janela',
    name: 'Costela janela',
    description: 'Costela bovina janela para fogo de chão',
    unit: 'KG',
    price: 34.9,
    category: 'bovinos',
  },
  {
    key: 'linguica-toscana',
    name: 'Linguiça toscana',
    description: 'Linguiça suína toscana artesanal',
    unit: 'KG',
    price: 27.9,
    category: 'suinos-aves',
  },
  {
    key: 'coracao-frango',
    name: 'Coração de frango',
    description: 'Coração de frango',
    unit: 'KG',
    price: 32.5,
    category: 'suinos-aves',
    options: ['tempero'],
  },
  {
    key: 'hamburguer-180',
    name: 'Hambúrguer artesanal 180 g',
    description: 'Blend de costela e acém, unidade de 180 g',
    unit: 'UN',
    price: 9.5,
    category: 'churrasco',
    options: ['ponto'],
    ean: '7891234567895',
  },
  {
    key: 'carvao-5kg',
    name: 'Carvão vegetal 5 kg',
    description: 'Saco de carvão vegetal',
    unit: 'UN',
    price: 29.9,
    category: 'churrasco',
  },
];

/** A category or an option group as the menu lists it: its id, place, name and code, available. */
function listedEntry(
  kind: 'category' | 'group',
  codePrefix: string,
  entry: { key: string; name: string },
  index: number,
) {
  return {
    id: odId(kind, entry.key),
    index,
    name: entry.name,
    externalCode: `${codePrefix}-${entry.key.toUpperCase()}`,
    status: 'AVAILABLE' as const,
  };
}

const CATEGORIES = [
  { key: 'bovinos', name: 'Bovinos' },
  { key: 'suinos-aves', name: 'Suínos e aves' },
  { key: 'churrasco', name: 'Para o churrasco' },
];

/** Option groups; an option with a price is an item of its own (Open Delivery Option.itemId). */
const GROUPS = [
  {
    key: 'corte',
    name: 'Tipo de corte',
    min: 1,
    max: 1,
    options: [{ name: 'Peça inteira' }, { name: 'Bifes' }, { name: 'Cubos para espeto' }],
  },
  {
    key: 'tempero',
    name: 'Tempero',
    min: 0,
    max: 2,
    options: [
      { name: 'Sal grosso', price: 0 },
      { name: 'Chimichurri', price: 4.5 },
      { name: 'Alho e ervas', price: 3 },
    ],
  },
  {
    key: 'ponto',
    name: 'Ponto da carne',
    min: 1,
    max: 1,
    options: [{ name: 'Mal passado' }, { name: 'Ao ponto' }, { name: 'Bem passado' }],
  },
];

const brl = (value: number) => ({ value, originalValue: value, currency: 'BRL' });
const everyDay = ['MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY', 'SUNDAY'] as const;

export interface OdMenuOptions {
  /** Price changes on top of the list (item key → price), to show a changed menu. */
  prices?: Record<string, number>;
  status?: 'AVAILABLE' | 'UNAVAILABLE';
  lastUpdate?: Date;
}

export function odButcherMenu(options: OdMenuOptions = {}): OdMerchant {
  const menuId = odId('menu', 'principal');
  const optionItems = GROUPS.flatMap((g) =>
    g.options.filter((o) => 'price' in o).map((o) => ({ key: `${g.key}-${o.name}`, name: o.name })),
  );
  return {
    lastUpdate: (options.lastUpdate ?? new Date('2026-03-01T12:00:00Z')).toISOString(),
    TTL: 600,
    id: OD_SANDBOX_MERCHANT_ID,
    status: options.status ?? 'AVAILABLE',
    basicInfo: {
      name: 'Açougue Boi na Brasa',
      document: '22815773000169',
      corporateName: 'Boi na Brasa Carnes Ltda',
      description: 'Açougue de bairro: cortes bovinos, suínos e tudo para o churrasco',
      averagePreparationTime: 20,
      minOrderValue: { value: 30, currency: 'BRL' },
      merchantType: 'RESTAURANT',
      merchantCategories: ['BBQ', 'BRAZILIAN'],
      address: {
        country: 'BR',
        state: 'BR-SP',
        city: 'São Paulo',
        district: 'Mooca',
        street: 'Rua da Mooca',
        number: '1200',
        postalCode: '03103-002',
        complement: 'Loja 2',
        latitude: -23.5558,
        longitude: -46.5996,
      },
      contactEmails: ['contato@boinabrasa.example'],
      contactPhones: { commercialNumber: '1133334444' },
      logoImage: { URL: 'https://img.boinabrasa.example/logo.png' },
    },
    services: [
      {
        id: odId('service', 'delivery'),
        status: 'AVAILABLE',
        serviceType: 'DELIVERY',
        menuId,
        serviceArea: { id: odId('area', 'mooca') },
        serviceHours: {
          id: odId('hours', 'delivery'),
          weekHours: [
            { dayOfWeek: [...everyDay], timePeriods: { startTime: '08:00:00.000Z', endTime: '20:00:00.000Z' } },
          ],
        },
      },
    ],
    menus: [
      {
        id: menuId,
        name: 'Cardápio',
        externalCode: 'MENU-1',
        categoryId: CATEGORIES.map((c) => odId('category', c.key)),
      },
    ],
    categories: CATEGORIES.map((c, index) => ({
      ...listedEntry('category', 'CAT', c, index),
      itemOfferId: ITEMS.filter((i) => i.category === c.key).map((i) => odId('offer', i.key)),
    })),
    itemOffers: ITEMS.map((i, index) => ({
      id: odId('offer', i.key),
      itemId: odId('item', i.key),
      index,
      status: 'AVAILABLE' as const,
      price: brl(options.prices?.[i.key] ?? i.price),
      ...(i.options ? { optionGroupsId: i.options.map((g) => odId('group', g)) } : {}),
    })),
    items: [
      ...ITEMS.map((i) => ({
        id: odId('item', i.key),
        name: i.name,
        description: i.description,
        externalCode: `BAL-${i.key.slice(0, 6).toUpperCase()}`,
        status: 'AVAILABLE' as const,
        unit: i.unit,
        image: { URL: `https://img.boinabrasa.example/${i.key}.jpg` },
        ...(i.ean ? { ean: i.ean } : {}),
      })),
      ...optionItems.map((o) => ({
        id: odId('item', o.key),
        name: o.name,
        description: '',
        externalCode: `OPC-${o.name.slice(0, 4).toUpperCase()}`,
        unit: 'UN' as const,
      })),
    ],
    optionGroups: GROUPS.map((g, index) => ({
      ...listedEntry('group', 'GRP', g, index),
      minPermitted: g.min,
      maxPermitted: g.max,
      options: g.options.map((o, position) => ({
        id: odId('option', `${g.key}-${o.name}`),
        index: position,
        ...('price' in o ? { itemId: odId('item', `${g.key}-${o.name}`), price: brl(o.price as number) } : {}),
      })),
    })),
  };
}

/** The products this menu creates, with their unit: what sandbox orders are placed from. */
export function odMenuProducts(): Array<{ pdvId: string; unit: 'KG' | 'UN' }> {
  return ITEMS.map((i) => ({ pdvId: odId('item', i.key), unit: i.unit }));
}
