import type { MerchantUpdateRequest } from '@cleaver/pos-client';

/**
 * A butcher shop's catalog as a MERCHANT upload (spec 4.3): cuts sold by weight (KG, price per
 * kilo) and by unit (UN). Used by `cleaver sandbox demo` and printed by `cleaver sandbox
 * sample-catalog` for developers to start from.
 */
export function sampleButcherCatalog(storeId = 'loja-centro'): MerchantUpdateRequest {
  const items: Array<{
    id: string;
    name: string;
    description: string;
    unit: 'KG' | 'UN';
    price: number;
    ean?: string;
  }> = [
    {
      id: 'picanha',
      name: 'Picanha',
      description: 'Picanha bovina maturada, peça com capa de gordura',
      unit: 'KG',
      price: 89.9,
    },
    { id: 'fraldinha', name: 'Fraldinha', description: 'Fraldinha bovina para churrasco', unit: 'KG', price: 54.9 },
    { id: 'alcatra', name: 'Alcatra', description: 'Miolo de alcatra em bifes', unit: 'KG', price: 49.9 },
    {
      id: 'costela-janela',
      name: 'Costela janela',
      description: 'Costela bovina janela para fogo de chão',
      unit: 'KG',
      price: 34.9,
    },
    {
      id: 'linguica-toscana',
      name: 'Linguiça toscana',
      description: 'Linguiça suína toscana artesanal',
      unit: 'KG',
      price: 27.9,
    },
    {
      id: 'coracao-frango',
      name: 'Coração de frango',
      description: 'Coração de frango temperado',
      unit: 'KG',
      price: 32.5,
    },
    {
      id: 'hamburguer-180',
      name: 'Hambúrguer artesanal 180 g',
      description: 'Blend de costela e acém, unidade de 180 g',
      unit: 'UN',
      price: 9.5,
      ean: '7891234567895',
    },
    { id: 'carvao-5kg', name: 'Carvão vegetal 5 kg', description: 'Saco de carvão vegetal', unit: 'UN', price: 29.9 },
    { id: 'sal-grosso', name: 'Sal grosso 1 kg', description: 'Sal grosso para churrasco', unit: 'UN', price: 6.9 },
  ];
  const categories = [
    { id: 'bovinos', name: 'Bovinos', items: ['picanha', 'fraldinha', 'alcatra', 'costela-janela'] },
    { id: 'suinos-aves', name: 'Suínos e aves', items: ['linguica-toscana', 'coracao-frango'] },
    { id: 'churrasco', name: 'Para o churrasco', items: ['hamburguer-180', 'carvao-5kg', 'sal-grosso'] },
  ];
  return {
    entityType: 'MERCHANT',
    merchantStatus: 'AVAILABLE',
    onlyAddProducts: false,
    updatedObjects: [
      {
        id: storeId,
        categories: categories.map((c, index) => ({
          id: c.id,
          name: c.name,
          index,
          status: 'AVAILABLE',
          itemOfferId: c.items.map((i) => `oferta-${i}`),
        })),
        itemOffers: items.map((i) => ({
          id: `oferta-${i.id}`,
          itemId: i.id,
          price: { value: i.price, currency: 'BRL' },
          status: 'AVAILABLE',
        })),
        items: items.map((i) => ({
          id: i.id,
          name: i.name,
          description: i.description,
          unit: i.unit,
          externalCode: `BAL-${i.id.slice(0, 6).toUpperCase()}`,
          ...(i.ean ? { ean: i.ean } : {}),
        })),
      },
    ],
  };
}

/**
 * Cuts and spices of the sample catalog's products (D37), by POS code. The catalog upload never
 * writes cuts: `cleaver sandbox demo` adds these through the operator API after its upload.
 */
export const SAMPLE_CUTS: Record<string, Array<{ id: string; name: string; spice?: { id: string; name: string } }>> = {
  picanha: [
    { id: 'picanha-bifes', name: 'Bifes', spice: { id: 'alho', name: 'Alho' } },
    { id: 'picanha-peca', name: 'Peça inteira' },
  ],
  fraldinha: [
    { id: 'fraldinha-tiras', name: 'Tiras', spice: { id: 'chimichurri', name: 'Chimichurri' } },
    { id: 'fraldinha-peca', name: 'Peça inteira' },
  ],
  alcatra: [
    { id: 'alcatra-bifes', name: 'Bifes finos' },
    { id: 'alcatra-cubos', name: 'Cubos para espeto', spice: { id: 'sal-grosso', name: 'Sal grosso' } },
  ],
};

/** The POS codes of the sample catalog with their unit and cuts, for sample orders. */
export function sampleCatalogProducts(): Array<{ pdvId: string; unit: 'KG' | 'UN'; cutIds?: string[] }> {
  const catalog = sampleButcherCatalog();
  if (catalog.entityType !== 'MERCHANT') return [];
  return (catalog.updatedObjects[0]?.items ?? []).map((i) => {
    const cuts = SAMPLE_CUTS[i.id];
    return { pdvId: i.id, unit: i.unit ?? 'UN', ...(cuts ? { cutIds: cuts.map((c) => c.id) } : {}) };
  });
}
