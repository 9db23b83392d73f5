import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { Config } from './config';
import { tooManyAttempts } from './errors';

/**
 * Attempt limits for sign-in and password-reset requests, counted per client IP and per account
 * (so neither rotating accounts from one IP nor rotating IPs against one account gets through).
 */
export class AttemptLimiter {
  private readonly byIp: RateLimiterMemory;
  private readonly byAccount: RateLimiterMemory;

  constructor(points: number, windowSeconds: number, prefix: string) {
    this.byIp = new RateLimiterMemory({ keyPrefix: `${prefix}:ip`, points: points * 3, duration: windowSeconds });
    this.byAccount = new RateLimiterMemory({ keyPrefix: `${prefix}:acct`, points, duration: windowSeconds });
  }

  /** Counts one attempt; throws 429 'Too Many Attempts.' once either budget is spent. */
  async hit(ip: string, account: string): Promise<void> {
    try {
      await Promise.all([this.byIp.consume(ip), this.byAccount.consume(account.toLowerCase())]);
    } catch (e) {
      if (e instanceof RateLimiterRes) throw tooManyAttempts();
      throw e;
    }
  }

  /** A successful sign-in forgets the account's failures. */
  async reset(account: string): Promise<void> {
    await this.byAccount.delete(account.toLowerCase());
  }
}

export interface Limits {
  login: AttemptLimiter;
  forgot: AttemptLimiter;
}

export function createLimits(config: Config): Limits {
  return {
    login: new AttemptLimiter(config.LOGIN_RATE_LIMIT, config.RATE_LIMIT_WINDOW_SECONDS, 'login'),
    forgot: new AttemptLimiter(config.FORGOT_RATE_LIMIT, config.RATE_LIMIT_WINDOW_SECONDS, 'forgot'),
  };
}
