import { SignJWT, importJWK, importPKCS8, type CryptoKey, type JWK, type KeyObject } from "jose";

/** Longest lifetime a sandbox token may have. */
export const MAX_TOKEN_LIFETIME_SECONDS = 300;

export type SigningAlgorithm = "EdDSA" | "RS256";

export interface TokenMinterOptions {
  /** The private key: a KeyObject or CryptoKey, a private JWK, or PKCS#8 PEM text. */
  privateKey: CryptoKey | KeyObject | JWK | string;
  algorithm: SigningAlgorithm;
  issuer: string;
  audience: string;
  /**
   * Seconds until the token expires; at most 300.
   * @default 60
   */
  lifetimeSeconds?: number;
  /** Key id for the `kid` header, when the sandbox rotates keys. */
  keyId?: string;
}

export interface TokenSubject {
  participantId: string;
  tenantId: string;
  /** Where the request came from, where the host knows it: the `client` claim, for a sandbox's fair turns. */
  clientId?: string;
}

export interface TokenMinter {
  mint(subject: TokenSubject): Promise<string>;
}

/** Mints one short-lived JWT per execution; the key never leaves the server. */
export function createTokenMinter(options: TokenMinterOptions): TokenMinter {
  const lifetime = options.lifetimeSeconds ?? 60;
  if (!(lifetime > 0 && lifetime <= MAX_TOKEN_LIFETIME_SECONDS)) {
    throw new RangeError(`lifetimeSeconds must be between 1 and ${MAX_TOKEN_LIFETIME_SECONDS}; got ${lifetime}.`);
  }
  const key = loadKey(options.privateKey, options.algorithm);
  // A bad key fails every mint with its own message; keep Node from reporting it twice.
  key.catch(() => undefined);
  return {
    async mint({ participantId, tenantId, clientId }) {
      const now = Math.floor(Date.now() / 1000);
      return new SignJWT({ tenant_id: tenantId, ...(clientId ? { client: clientId } : {}) })
        .setProtectedHeader({ alg: options.algorithm, typ: "JWT", ...(options.keyId ? { kid: options.keyId } : {}) })
        .setIssuer(options.issuer)
        .setAudience(options.audience)
        .setSubject(participantId)
        .setJti(crypto.randomUUID())
        .setIssuedAt(now)
        .setNotBefore(now)
        .setExpirationTime(now + lifetime)
        .sign(await key);
    },
  };
}

async function loadKey(
  key: TokenMinterOptions["privateKey"],
  algorithm: SigningAlgorithm,
): Promise<CryptoKey | KeyObject | Uint8Array> {
  if (typeof key === "string") return importPKCS8(key, algorithm);
  if ("kty" in key && typeof key.kty === "string") return importJWK(key as JWK, algorithm);
  return key as CryptoKey | KeyObject;
}

/** A minter given as is, or one made from key options. */
export function toTokenMinter(signing: TokenMinterOptions | TokenMinter): TokenMinter {
  return typeof (signing as TokenMinter).mint === "function"
    ? (signing as TokenMinter)
    : createTokenMinter(signing as TokenMinterOptions);
}
