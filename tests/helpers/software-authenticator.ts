/**
 * A small software authenticator for tests: answers WebAuthn registration and sign-in options the
 * way a browser and a platform authenticator would, so the server's verification
 * (@simplewebauthn/server) runs for real. Written from the WebAuthn Level 2 specification:
 *
 * - clientDataJSON: { type, challenge, origin, crossOrigin } (§5.8.1);
 * - authenticatorData: SHA-256(rpId) | flags | signCount (big-endian u32) | attested credential
 *   data (AAGUID | credential id length | credential id | COSE key) at registration (§6.1);
 * - attestation 'none': the CBOR map { fmt: 'none', attStmt: {}, authData } (§8.7);
 * - ES256 keys (P-256, COSE alg -7) from node:crypto; a sign-in's signature is ECDSA-SHA-256 (DER)
 *   over authenticatorData | SHA-256(clientDataJSON) (§6.3.3).
 *
 * Credentials are discoverable (resident): a sign-in without allowCredentials picks one.
 */
import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';

const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();

type Cbor = number | string | Uint8Array | Map<Cbor, Cbor> | { [key: string]: Cbor };

/** Major type and argument of a CBOR data item head (RFC 8949 §3). */
function head(major: number, value: number): Buffer {
  if (value < 24) return Buffer.from([(major << 5) | value]);
  if (value < 0x100) return Buffer.from([(major << 5) | 24, value]);
  if (value < 0x10000) {
    const b = Buffer.alloc(3);
    b[0] = (major << 5) | 25;
    b.writeUInt16BE(value, 1);
    return b;
  }
  const b = Buffer.alloc(5);
  b[0] = (major << 5) | 26;
  b.writeUInt32BE(value, 1);
  return b;
}

/** The CBOR a WebAuthn authenticator writes: integers, byte and text strings, maps. */
export function cbor(value: Cbor): Buffer {
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') {
    const text = Buffer.from(value, 'utf8');
    return Buffer.concat([head(3, text.length), text]);
  }
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), value]);
  const entries = value instanceof Map ? [...value.entries()] : Object.entries(value);
  return Buffer.concat([head(5, entries.length), ...entries.flatMap(([k, v]) => [cbor(k), cbor(v)])]);
}

export interface SoftwareCredential {
  id: Buffer;
  privateKey: KeyObject;
  cosePublicKey: Buffer;
  counter: number;
  /** The user handle the site gave (options.user.id, base64url). */
  userHandle: string;
}

interface CreationOptions {
  challenge: string;
  rp: { id?: string };
  user: { id: string };
}

interface RequestOptions {
  challenge: string;
  rpId?: string;
  allowCredentials?: { id: string }[];
}

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_AT = 0x40;

export class SoftwareAuthenticator {
  readonly credentials: SoftwareCredential[] = [];
  /** 0 for an authenticator without a signature counter (each sign-in answers 0), else the step. */
  constructor(
    readonly origin: string,
    readonly counterStep = 1,
  ) {}

  private clientData(type: 'webauthn.create' | 'webauthn.get', challenge: string, origin: string): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }), 'utf8');
  }

  private authData(rpId: string, flags: number, counter: number, attested?: Buffer): Buffer {
    const count = Buffer.alloc(4);
    count.writeUInt32BE(counter, 0);
    return Buffer.concat([sha256(rpId), Buffer.from([flags]), count, ...(attested ? [attested] : [])]);
  }

  /** navigator.credentials.create(): a new ES256 credential, answered as RegistrationResponseJSON. */
  register(options: CreationOptions, tweak: { origin?: string; challenge?: string } = {}) {
    const rpId = options.rp.id ?? new URL(this.origin).hostname;
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = publicKey.export({ format: 'jwk' });
    const cosePublicKey = cbor(
      new Map<Cbor, Cbor>([
        [1, 2], // kty: EC2
        [3, -7], // alg: ES256
        [-1, 1], // crv: P-256
        [-2, Buffer.from(jwk.x!, 'base64url')],
        [-3, Buffer.from(jwk.y!, 'base64url')],
      ]),
    );
    const id = randomBytes(16);
    const credential: SoftwareCredential = { id, privateKey, cosePublicKey, counter: 0, userHandle: options.user.id };
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(id.length, 0);
    const attested = Buffer.concat([Buffer.alloc(16), idLength, id, cosePublicKey]);
    const authData = this.authData(rpId, FLAG_UP | FLAG_UV | FLAG_AT, credential.counter, attested);
    const clientDataJSON = this.clientData('webauthn.create', tweak.challenge ?? options.challenge, tweak.origin ?? this.origin);
    this.credentials.push(credential);
    return {
      id: b64url(id),
      rawId: b64url(id),
      type: 'public-key' as const,
      response: {
        clientDataJSON: b64url(clientDataJSON),
        attestationObject: b64url(cbor({ fmt: 'none', attStmt: {}, authData })),
        transports: ['internal'],
      },
      authenticatorAttachment: 'platform',
      clientExtensionResults: {},
    };
  }

  /**
   * navigator.credentials.get(): signs the challenge with `credential` (default: the first allowed
   * one, or the newest); `counter` replaces the counter the authenticator would send.
   */
  signIn(options: RequestOptions, tweak: { credential?: SoftwareCredential; challenge?: string; counter?: number; id?: string } = {}) {
    const rpId = options.rpId ?? new URL(this.origin).hostname;
    const allowed = options.allowCredentials?.map((c) => c.id);
    const credential =
      tweak.credential ?? (allowed?.length ? this.credentials.find((c) => allowed.includes(b64url(c.id))) : this.credentials[this.credentials.length - 1]);
    if (!credential) throw new Error('no credential for these options');
    if (tweak.counter === undefined) credential.counter += this.counterStep;
    const counter = tweak.counter ?? credential.counter;
    const authData = this.authData(rpId, FLAG_UP | FLAG_UV, counter);
    const clientDataJSON = this.clientData('webauthn.get', tweak.challenge ?? options.challenge, this.origin);
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), credential.privateKey);
    const id = tweak.id ?? b64url(credential.id);
    return {
      id,
      rawId: id,
      type: 'public-key' as const,
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        userHandle: credential.userHandle,
      },
      authenticatorAttachment: 'platform',
      clientExtensionResults: {},
    };
  }
}
