/**
 * The well-known records of docs/behaviour.md §5 (fixtures/*.json), by the names the tests use:
 * a test that names one takes its id from here (test/unit/well-known.test.ts holds these to the fixtures).
 */

/** The two well-known subscribers' `subscriberId`s: Ada Lovelace and Grace Hopper. */
export const ADA = 'demo-subscriber-1'
export const GRACE = 'demo-subscriber-2'
/** Their `_id`s. */
export const ADA_ID = '64f000000000000000000001'
export const GRACE_ID = '64f000000000000000000002'

/** The well-known integrations' `_id`s, by provider. */
export const INTEGRATIONS = {
  sendgrid: '64f100000000000000000001',
  mailgun: '64f100000000000000000002',
  ses: '64f100000000000000000003',
  twilio: '64f100000000000000000004',
  plivo: '64f100000000000000000005',
  fcm: '64f100000000000000000006',
  slack: '64f100000000000000000007',
  novu: '64f100000000000000000008',
  apns: '64f100000000000000000009',
} as const

/** The `_id` of Ada's n-th well-known message (1 to 10). */
export const adaMessage = (n: number): string => `64f2${String(n).padStart(20, '0')}`
/** The `_id` of Grace's n-th well-known message (1 to 3). */
export const graceMessage = (n: number): string => `64f3${String(n).padStart(20, '0')}`
