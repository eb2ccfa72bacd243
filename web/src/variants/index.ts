// The games by name: `variantOf('iceage')`, and reading a game's name from an address.

import type { Variant as VariantKey } from '../api';
import { antarctos } from './antarctos';
import { iceage } from './iceage';
import type { Variant } from './types';

export type { Cell, Setup, Variant } from './types';

const ALL: Record<VariantKey, Variant> = { antarctos, iceage };

export const variantOf = (key: VariantKey): Variant => ALL[key];

/** The game named `name` (an address part, a query value), or null. */
export const parseVariant = (name: string | null | undefined): Variant | null =>
  name && Object.prototype.hasOwnProperty.call(ALL, name) ? ALL[name as VariantKey] : null;

/** The game named `name`, Antarctos when it names none. */
export const variantOr = (name: string | null | undefined): Variant => parseVariant(name) ?? antarctos;
