import { exportJWK, generateKeyPair } from "jose";
import type { TokenMinterOptions } from "../server/token.js";

/** The audience the kit's tokens name for a sandbox. */
export const SANDBOX_AUDIENCE = "sandbox";

/**
 * A fresh EdDSA key pair for one issuer, as its two halves: what a sandbox
 * verifies the tool's tokens with, and what the tool signs them with. The
 * private half never leaves the process that made it.
 */
export async function sandboxKeys(issuer: string) {
  const { privateKey, publicKey } = await generateKeyPair("EdDSA", { extractable: true });
  return {
    verification: { publicKey, algorithms: ["EdDSA"], issuer, audience: SANDBOX_AUDIENCE },
    signing: {
      privateKey: await exportJWK(privateKey),
      algorithm: "EdDSA",
      issuer,
      audience: SANDBOX_AUDIENCE,
      lifetimeSeconds: 60,
    } satisfies TokenMinterOptions,
  };
}
