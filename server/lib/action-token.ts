/**
 * The signed token of an action link (docs/notifications.md "Action links"): what one tap in a
 * notification may do, to which reminder, for which delivery. Pure: HMAC-SHA256 over the fields
 * with the server's action-link secret, so nothing is stored until the token is used, and a
 * token can be neither forged nor pointed at another reminder or action without the secret.
 *
 * Shape: `<payload>.<mac>`, both base64url; payload (42 bytes): version 1, delivery id and reminder id
 * (16 bytes each), occurrence (epoch ms, 8 bytes), action (its index in LINK_ACTIONS).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const LINK_ACTIONS = ['snooze10', 'tomorrow', 'done'] as const;
export type LinkAction = (typeof LINK_ACTIONS)[number];

export interface ActionTokenFields {
  deliveryId: string;
  reminderId: string;
  /** The occurrence the notification delivered (epoch ms): Tomorrow keeps its time, the expiry follows from it. */
  occurrenceMs: number;
  action: LinkAction;
}

const VERSION = 1;
/** 128 bits of the HMAC: enough against forgery, and it keeps links short in a notification. */
const MAC_BYTES = 16;
const PAYLOAD_BYTES = 1 + 16 + 16 + 8 + 1;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function macOf(secret: string, payload: Buffer): Buffer {
  return createHmac('sha256', secret).update('chime-action-link:').update(payload).digest().subarray(0, MAC_BYTES);
}

const uuidBytes = (id: string) => Buffer.from(id.replaceAll('-', ''), 'hex');
const uuidText = (b: Buffer) => {
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
};

/** Binary, so a link stays under the router's 100-character path parameter: ids are UUIDs. */
export function signActionToken(secret: string, fields: ActionTokenFields): string {
  if (!UUID.test(fields.deliveryId) || !UUID.test(fields.reminderId)) throw new Error('action tokens name deliveries and reminders by their UUID');
  const payload = Buffer.alloc(PAYLOAD_BYTES);
  payload.writeUInt8(VERSION, 0);
  uuidBytes(fields.deliveryId).copy(payload, 1);
  uuidBytes(fields.reminderId).copy(payload, 17);
  payload.writeBigUInt64BE(BigInt(Math.max(0, Math.trunc(fields.occurrenceMs))), 33);
  payload.writeUInt8(LINK_ACTIONS.indexOf(fields.action), 41);
  return `${payload.toString('base64url')}.${macOf(secret, payload).toString('base64url')}`;
}

/** The token's fields when its signature holds; null for anything else (never throws). */
export function verifyActionToken(secret: string, token: string): ActionTokenFields | null {
  if (typeof token !== 'string' || token.length > 200) return null;
  const [encoded, mac, extra] = token.split('.');
  if (!encoded || !mac || extra !== undefined || !/^[A-Za-z0-9_-]+$/.test(encoded) || !/^[A-Za-z0-9_-]+$/.test(mac)) return null;
  const payload = Buffer.from(encoded, 'base64url');
  const given = Buffer.from(mac, 'base64url');
  if (payload.length !== PAYLOAD_BYTES) return null;
  const expected = macOf(secret, payload);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  const action = LINK_ACTIONS[payload.readUInt8(41)];
  const occurrenceMs = Number(payload.readBigUInt64BE(33));
  if (payload.readUInt8(0) !== VERSION || !action || !Number.isSafeInteger(occurrenceMs)) return null;
  return { deliveryId: uuidText(payload.subarray(1, 17)), reminderId: uuidText(payload.subarray(17, 33)), occurrenceMs, action };
}

/**
 * A chat button's reference to a token (Telegram's callback_data holds at most 64 bytes; a token
 * is 79 characters). It keeps what cannot be looked up: the action, the delivery id and the MAC,
 * as `a<action index><delivery id, 22><mac, 22>` (46 ASCII characters). The reminder and the
 * occurrence are read back from the delivery, and the token rebuilt from them is verified like any
 * other: a changed byte, or another delivery's id under this MAC, breaks the signature.
 */
export interface ActionTokenReference {
  deliveryId: string;
  action: LinkAction;
  mac: string;
}

const REFERENCE = /^a([0-9])([A-Za-z0-9_-]{22})([A-Za-z0-9_-]{22})$/;

export function actionTokenReference(token: string): string {
  const [encoded, mac] = token.split('.');
  const payload = Buffer.from(encoded ?? '', 'base64url');
  if (payload.length !== PAYLOAD_BYTES || !mac) throw new Error('not an action token');
  return `a${payload.readUInt8(41)}${payload.subarray(1, 17).toString('base64url')}${mac}`;
}

/** The parts of a reference, or null for anything that is not one (never throws). */
export function parseActionTokenReference(reference: string): ActionTokenReference | null {
  const match = typeof reference === 'string' ? REFERENCE.exec(reference) : null;
  if (!match) return null;
  const action = LINK_ACTIONS[Number(match[1])];
  const id = Buffer.from(match[2]!, 'base64url');
  if (!action || id.length !== 16) return null;
  return { deliveryId: uuidText(id), action, mac: match[3]! };
}

/** The token a reference stands for, given its delivery's reminder and occurrence: still to be verified. */
export function actionTokenOfReference(reference: ActionTokenReference, delivery: { reminderId: string; occurrenceMs: number }): string | null {
  if (!UUID.test(delivery.reminderId)) return null;
  const payload = Buffer.alloc(PAYLOAD_BYTES);
  payload.writeUInt8(VERSION, 0);
  uuidBytes(reference.deliveryId).copy(payload, 1);
  uuidBytes(delivery.reminderId).copy(payload, 17);
  payload.writeBigUInt64BE(BigInt(Math.max(0, Math.trunc(delivery.occurrenceMs))), 33);
  payload.writeUInt8(LINK_ACTIONS.indexOf(reference.action), 41);
  return `${payload.toString('base64url')}.${reference.mac}`;
}
