// What the payer does at their bank to pay a virtual account or a Fawry reference: short,
// channel-by-channel steps. Plain text only; the page template escapes and numbers them.

export interface PayingChannel {
  /** e.g. "ATM", "BRImo (mobile banking)". */
  readonly title: string;
  readonly steps: readonly string[];
}

const VA = 'the virtual account number above';
const CHECK = 'Check that the name and amount shown match this page, then confirm';

/** Steps for paying an Indonesian virtual account, per bank (payment method). */
export const VA_STEPS: Readonly<Record<string, readonly PayingChannel[]>> = {
  BNI: [
    {
      title: 'BNI ATM',
      steps: ['Insert your card and enter your PIN', 'Choose Other Menu, then Transfer, then Virtual Account Billing', `Enter ${VA}`, CHECK, 'Keep the receipt'],
    },
    {
      title: 'BNI Mobile Banking',
      steps: ['Log in to BNI Mobile Banking', 'Tap Transfer, then Virtual Account Billing', `Enter ${VA} as a new input`, CHECK, 'Authorise with your transaction password'],
    },
    {
      title: 'BNI Internet Banking',
      steps: ['Sign in at ibank.bni.co.id', 'Open Transfer, then Virtual Account Billing', `Enter ${VA}`, CHECK, 'Authorise with your BNI e-Secure token code'],
    },
  ],
  BRI: [
    {
      title: 'BRI ATM',
      steps: ['Insert your card and enter your PIN', 'Choose Other Transactions, then Payment, then Others, then BRIVA', `Enter ${VA}`, CHECK],
    },
    {
      title: 'BRImo (mobile banking)',
      steps: ['Log in to BRImo', 'Tap BRIVA and choose Add new payment', `Enter ${VA}`, CHECK, 'Enter your BRImo PIN'],
    },
    {
      title: 'BRI Internet Banking',
      steps: ['Sign in at ib.bri.co.id', 'Open Payment, then BRIVA', `Enter ${VA}`, CHECK, 'Enter your password and the mToken code'],
    },
  ],
  MANDIRI: [
    {
      title: 'Mandiri ATM',
      steps: ['Insert your card and enter your PIN', 'Choose Pay/Buy, then Others, then Multi Payment', 'Enter the company code shown by the biller (the first digits of the account number), then ' + VA, CHECK, 'Press 1 to select the bill, then Yes'],
    },
    {
      title: "Livin' by Mandiri (mobile banking)",
      steps: ["Log in to Livin' by Mandiri", 'Tap Pay (Bayar), then search for the biller of this payment', `Enter ${VA}`, CHECK, 'Enter your MPIN'],
    },
    {
      title: 'Mandiri Internet Banking',
      steps: ['Sign in to Mandiri Online', 'Open Payment, then Multi Payment, and pick the biller', `Enter ${VA}`, CHECK, 'Authorise with your token challenge code'],
    },
  ],
  PERMATA: [
    {
      title: 'Permata ATM',
      steps: ['Insert your card and enter your PIN', 'Choose Other Transactions, then Payment, then Other Payments, then Virtual Account', `Enter ${VA}`, CHECK],
    },
    {
      title: 'PermataMobile X',
      steps: ['Log in to PermataMobile X', 'Tap Pay Bills, then Virtual Account', `Enter ${VA}`, CHECK, 'Enter the one-time code sent to your phone'],
    },
    {
      title: 'PermataNet (internet banking)',
      steps: ['Sign in to PermataNet', 'Open Payment, then Virtual Account Payment', `Enter ${VA}`, CHECK, 'Enter the one-time code sent to your phone'],
    },
  ],
};

/** Paying a Fawry reference code, in person or in the app. */
export const FAWRY_STEPS: readonly PayingChannel[] = [
  {
    title: 'At a Fawry outlet',
    steps: [
      'Go to any shop, pharmacy or kiosk showing the yellow Fawry sign',
      'Tell the cashier you want to pay with Fawry Pay and give the reference number',
      'Check the amount the cashier reads back, then pay in cash',
      'Keep the printed receipt until the merchant confirms your order',
    ],
  },
  {
    title: 'In the myFawry app',
    steps: [
      'Open myFawry and sign in',
      'Tap Pay with reference number (Fawry Pay)',
      'Enter the reference number and check the amount',
      'Pay with your card or wallet and confirm',
    ],
  },
];
