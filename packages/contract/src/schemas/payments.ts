import { z } from 'zod';
import { blankAsAbsent, idField, optionalText, requiredText } from '../validation.js';
import { listFields, pagedList } from './paging.js';
import { gstinValid } from './trainer-formats.js';

/**
 * Cart and payments (spec 01 §2 cart, §3 Cart item, §4 Payment; spec 02 §3 VM payment data and
 * payment history, §4 payment states). Money on the wire is rupees (`amount`, `price`, `total_cost`)
 * beside the exact integer paise (`*_paise`).
 */

/** Payment status (spec 02 §4). */
export const PAYMENT_STATUS = { success: 1, failed: 2, pending: 3 } as const;
export const PAYMENT_STATUS_LABEL: Record<number, string> = { 1: 'Success', 2: 'Failed', 3: 'Pending' };
export const CART_TYPES = ['is_course', 'is_certificate'] as const;
export type CartType = (typeof CART_TYPES)[number];

const blank = blankAsAbsent;
/** The anonymous visitor's id kept in the browser. */
const deviceKey = () =>
  z.preprocess(
    blank,
    z
      .string()
      .trim()
      .max(100)
      .regex(/^[\w-]+$/, { message: 'The device key may only contain letters, numbers, dashes and underscores.' })
      .optional(),
  );

// ------------------------------------------------------------------------------------------------
// cart

export const addCartRequest = z.object({
  type: z.enum(CART_TYPES, { error: () => 'The selected type is invalid.' }),
  type_id: idField(),
  /** sent by existing clients; never trusted (the catalogue's current price is used) */
  price: z.unknown().optional(),
  device_key: deviceKey(),
});
export const cartItemRequest = z.object({
  type: z.enum(CART_TYPES, { error: () => 'The selected type is invalid.' }),
  type_id: idField(),
  device_key: deviceKey(),
});
export const showCartRequest = z.object({ device_key: deviceKey() });
export const mergeCartRequest = z.object({ device_key: deviceKey() });

export const cartLine = z.object({
  id: z.number(),
  type: z.enum(CART_TYPES),
  type_id: z.number(),
  name: z.string(),
  /** course slug (links to the course page /course-details/{slug}); null for a certification */
  slug: z.string().nullable(),
  /** current catalogue price, rupees */
  price: z.number(),
  price_paise: z.number().int(),
  /** the signed-in buyer already has this item: it is shown, left out of the total and never charged */
  owned: z.boolean(),
});
export type CartLine = z.infer<typeof cartLine>;
/** `total` is what checkout-cart asks for, to the paisa: the lines not owned. */
export const cartResponse = z.object({
  list: z.array(cartLine),
  total: z.number(),
  total_paise: z.number().int(),
  count: z.number().int(),
});
export type CartView = z.infer<typeof cartResponse>;
export const addCartResponse = cartResponse.extend({ message: z.string() });

// ------------------------------------------------------------------------------------------------
// payments

/** What the browser needs to open the gateway's checkout for an order made on the server. */
export const checkoutResponse = z.object({
  id: z.number(),
  receipt_no: z.string(),
  gateway: z.enum(['test', 'razorpay']),
  key_id: z.string(),
  order_id: z.string(),
  amount: z.number(),
  amount_paise: z.number().int(),
  currency: z.string(),
  description: z.string(),
  /** the embedded test gateway's checkout page; null for Razorpay (its script opens the checkout) */
  checkout_url: z.string().nullable(),
});
export type Checkout = z.infer<typeof checkoutResponse>;

export const checkoutCartRequest = z.object({ device_key: deviceKey() });

/** The checkout's signed callback (Razorpay's handler fields). */
export const verifyPaymentRequest = z.object({
  razorpay_order_id: requiredText(100),
  razorpay_payment_id: requiredText(100),
  razorpay_signature: requiredText(200),
});
export const paymentFailedRequest = z.object({
  razorpay_order_id: requiredText(100),
  reason: optionalText(500),
});

export const paymentRow = z.object({
  id: z.number(),
  receipt_no: z.string(),
  /** the gateway's payment id (null until paid) */
  payment_id: z.string().nullable(),
  order_id: z.string(),
  purpose: z.string(),
  created_at: z.string(),
  /** rupees */
  amount: z.number(),
  amount_paise: z.number().int(),
  /** 1 Success, 2 Failed, 3 Pending */
  status: z.number().int(),
  items: z.array(z.object({ kind: z.string(), ref_id: z.number(), name: z.string(), amount: z.number() })),
});
export type PaymentRow = z.infer<typeof paymentRow>;
export const paymentResultResponse = z.object({ message: z.string(), payment: paymentRow });

export const PAYMENT_SORTS = ['created_at', 'amount', 'status'] as const;

/** One thing the caller bought (an item of a successful cart payment) and what to do with it next. */
export const purchaseRow = z.object({
  id: z.number(),
  kind: z.enum(['course', 'certification']),
  ref_id: z.number(),
  name: z.string(),
  /** rupees paid for this item */
  amount: z.number(),
  amount_paise: z.number().int(),
  bought_at: z.string(),
  payment_id: z.number(),
  receipt_no: z.string(),
  /** the course's page to learn in (null when the course is gone) */
  course_slug: z.string().nullable(),
  /** the vendor's exam booking page of a certification, when the catalogue has one */
  exam_link: z.string().nullable(),
});
export type PurchaseRow = z.infer<typeof purchaseRow>;
export const PURCHASE_SORTS = ['bought_at', 'name', 'amount'] as const;
export const myPurchasesRequest = z.object(listFields(PURCHASE_SORTS));
export const purchasePage = pagedList(purchaseRow);
export const paymentHistoryRequest = z.object(listFields(PAYMENT_SORTS));
export const paymentPage = pagedList(paymentRow);
export const paymentIdRequest = z.object({ id: idField() });
export const receiptFileResponse = z.any().meta({ description: 'PDF bytes (application/pdf attachment)' });

// test gateway
export const testGatewayOrderRequest = z.object({ order_id: requiredText(100) });
export const testGatewayOrder = z.object({
  order_id: z.string(),
  amount: z.number(),
  amount_paise: z.number().int(),
  currency: z.string(),
  description: z.string(),
  status: z.number().int(),
});
export const testGatewayPayRequest = z.object({
  order_id: requiredText(100),
  outcome: z.enum(['pay', 'fail'], { error: () => 'The selected outcome is invalid.' }),
});
export const testGatewayPayResponse = z.object({
  outcome: z.enum(['pay', 'fail']),
  razorpay_order_id: z.string(),
  razorpay_payment_id: z.string(),
  razorpay_signature: z.string().nullable(),
});

// VM billing
export const vmUsageBillRow = z.object({
  id: z.number(),
  name: z.string(),
  /** the lab's VM name: its VM Details shows the price per hour this run was charged at */
  vm_name: z.string(),
  created: z.string().nullable(),
  deleted: z.string().nullable(),
  /** the run's own start and stop, as on VM Details */
  vm_start: z.string().nullable(),
  vm_stop: z.string().nullable(),
  used_min: z.number().int(),
  /** rupees */
  total_cost: z.number(),
  total_cost_paise: z.number().int(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  email: z.string().nullable(),
  mobile_no: z.string().nullable(),
});
export const vmPaymentDataResponse = z.object({
  total_cost: z.number(),
  total_cost_paise: z.number().int(),
  list: z.array(vmUsageBillRow),
});
/** spec 02 §7 sends payment_id; the order id and signature prove it (only a verified payment is accepted). */
export const saveVmPaymentRequest = z.object({
  payment_id: requiredText(100),
  razorpay_order_id: requiredText(100),
  razorpay_signature: requiredText(200),
});

// billing settings (GST per tenant)
export const billingSettings = z.object({ gst_percent: z.number(), gstin: z.string().nullable() });
export const saveBillingSettingsRequest = z.object({
  gst_percent: z.coerce.number().min(0).max(100),
  gstin: z.preprocess(
    (v) => blank(typeof v === 'string' ? v.replace(/\s+/g, '').toUpperCase() : v),
    z
      .string()
      .regex(/^[0-9A-Z]{15}$/, { message: 'The gstin must be 15 letters or digits.', abort: true })
      .refine(gstinValid, { message: 'The gstin is not valid: check it for a mistyped character.' })
      .optional(),
  ),
});
