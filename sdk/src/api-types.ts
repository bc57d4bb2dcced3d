// Generated from GET /openapi.json by openapi-typescript (npm run generate:api-types); do not edit.
// The wire types of the merchant API, built from the same TypeBox schemas that validate the routes.

export interface paths {
    "/v1/api/account/balance": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Balances of one currency */
        post: operations["accountBalance"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api/account/usdt/rate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Current USDT deposit and withdraw rates for one currency */
        post: operations["accountUsdtRate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api/payout/bankCode": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Bank codes and names for payouts in one currency
         * @description IDR: 5-digit codes of banks, regional development banks and e-wallets. NGN: CBN/NIP codes. EGP: codes of Egyptian banks. INR: IFSC prefixes (a payout carries the full 11-character IFSC). A live merchant whose payouts go through a provider that publishes its own list (NGN on Paystack) gets that list.
         */
        post: operations["payoutBankCodes"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api/payment/initiate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create a payment and get its checkout URL
         * @description Idempotent per merchantRef: the same body again answers the original payment (HTTP 200, same transactionRef); another body under a used merchantRef is 409 DUPLICATE_MERCHANT_REF.
         */
        post: operations["paymentInitiate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api/payment/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A payment by transactionRef or merchantRef */
        post: operations["paymentStatus"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api/payment/fetch": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Same as payment/status (the original provider's name) */
        post: operations["paymentFetch"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api/payment/refund": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Refund a successful payment in full
         * @description Accepted for a Success payment of a refundable method within 30 minutes of completion. Repeating it answers the refund already made. 503 UNAVAILABLE means the refund is accepted and awaits the channel: repeat the call.
         */
        post: operations["paymentRefund"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api/payment/methods": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Pay-in and payout methods of a currency, with your bounds and fees
         * @description A sandbox merchant gets every method of the currency (all served by the simulator). A live merchant gets exactly the methods the operator has routed to a connector that is ready; any other method is answered 403 METHOD_NOT_ENABLED by payment/initiate and payout/initiate.
         */
        post: operations["paymentMethods"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api/payout/initiate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send money to a bank account, UPI VPA or mobile wallet
         * @description Reserves amount + fee from available (then credit) and answers Initiated; the payout reaches the upstream at most once and its outcome arrives by webhook (payout.succeeded / payout.failed) and payout/status. Idempotent per merchantRef: the same body again answers the original payout; another body under a used merchantRef is 409 DUPLICATE_MERCHANT_REF. 422 INSUFFICIENT_BALANCE when amount + fee exceeds available + credit (nothing is stored). Above your approval threshold (operator setting) it answers PendingApproval instead: funds reserved, sent upstream only once another key calls payout/approve.
         */
        post: operations["payoutInitiate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api/payout/approve": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Approve a payout waiting in PendingApproval (maker-checker)
         * @description Sign with another of your keys than the one that initiated the payout. The payout becomes Initiated and goes upstream; its outcome arrives as usual (payout.succeeded / payout.failed).
         */
        post: operations["payoutApprove"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api/payout/reject": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Reject a payout waiting in PendingApproval (maker-checker)
         * @description Sign with another of your keys than the one that initiated the payout. The payout ends Failed with failureReason REJECTED_BY_MERCHANT, its amount and fee return to your balance, and payout.failed is sent.
         */
        post: operations["payoutReject"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api/payout/accountInquiry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The holder's name of an account a payout would go to (name enquiry)
         * @description Checks currency, method, bankCode and account as payout/initiate does, then asks the bank through the provider that would pay the payout (sandbox: the simulator, whose names derive from the account). Answers are kept about 10 minutes (unknown accounts 1 minute). 422 INVALID_ACCOUNT: no such account; 422 NAME_ENQUIRY_UNAVAILABLE: that provider cannot resolve names; 503 UNAVAILABLE: the bank did not answer in time.
         */
        post: operations["payoutAccountInquiry"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api/payout/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A payout by transactionRef or merchantRef */
        post: operations["payoutStatus"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api/payout/fetch": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Same as payout/status (the original provider's name) */
        post: operations["payoutFetch"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api/payout/batch": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send up to 1,000 payouts in one call
         * @description Each item is an ordinary payout/initiate body, checked and accepted as initiate would (its merchantRef unique among your payouts), with its amount + fee reserved; items are reserved in the order sent. The answer lists every item: accepted (transactionRef) or refused (reason, detail, errors); refused items do not block the others unless atomic is true. Idempotent on the batch merchantRef: the same body again answers the original batch; another body is 409 DUPLICATE_MERCHANT_REF. payout.batch_completed is sent once every accepted item is final. Items above your approval threshold wait in PendingApproval (each announced by payout.pending_approval) as a single payout would, until payout/approve or payout/reject or their timeout; the batch completes only after them. Counts as one request for the rate limit.
         */
        post: operations["payoutBatch"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api/payout/batchStatus": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A payout batch by merchantRef or batchId: counts per status and every item */
        post: operations["payoutBatchStatus"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api/sandbox/payment/complete": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sandbox only: pay or decline a payment as its payer
         * @description Answers the payment record after the outcome is applied; the webhook follows as for a real payment. Live merchants get 403 METHOD_NOT_ENABLED. A payment that is already final is answered unchanged; paying an Expired payment records late money (the payment stays Expired).
         */
        post: operations["sandboxPaymentComplete"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api/webhook/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * List your webhook events, newest first
         * @description An event is kept for the retention the operator sets (WEBHOOK_EVENT_RETENTION_DAYS, 90 days by default) after it was created; then, once its delivery is over (delivered, failed or no_destination), it is deleted with its attempts and no longer listed, shown or resent (404). An event still being retried is never deleted.
         */
        post: operations["webhookEvents"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api/webhook/event": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** One webhook event with its body and every delivery attempt */
        post: operations["webhookEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api/webhook/resend": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send a webhook event again now, with a fresh retry schedule */
        post: operations["webhookResend"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api/payment/list": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Your payments, filtered, a page at a time
         * @description Newest first by creation time. nextCursor is opaque and bound to your merchant and these filters (only limit may change); a cursor altered, older than 24 hours, or sent with other filters is 400 VALIDATION_FAILED. A ref of another merchant matches nothing.
         */
        post: operations["paymentList"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api/payout/list": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Your payouts, filtered, a page at a time
         * @description Newest first by creation time. nextCursor is opaque and bound to your merchant and these filters (only limit may change); a cursor altered, older than 24 hours, or sent with other filters is 400 VALIDATION_FAILED. A ref of another merchant matches nothing.
         */
        post: operations["payoutList"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api/account/statement": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Every movement of your balances in one currency, with the balance after each
         * @description Newest first; an entry that moves several buckets gives one line per bucket. balanceAfter of the newest line equals account/balance at that moment. Newest first by creation time. nextCursor is opaque and bound to your merchant and these filters (only limit may change); a cursor altered, older than 24 hours, or sent with other filters is 400 VALIDATION_FAILED. A ref of another merchant matches nothing.
         */
        post: operations["accountStatement"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api/account/settlements": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Per UTC day: collected, refunded, paid out, fees, and what settled from pending to available */
        post: operations["accountSettlements"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api/report/create": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Ask for a CSV export of your payments, payouts, statement or settlements over a range
         * @description Answers at once with the report (Pending); a background job writes the file. The same request again within 10 minutes answers that report (unless it failed), so a retry never makes a second export; later, a fresh one is made.
         */
        post: operations["reportCreate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api/report/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Where a report stands, with a download URL once it is Ready */
        post: operations["reportStatus"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/merchants": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List merchants */
        get: operations["adminListMerchants"];
        put?: never;
        /** Create a merchant and its first API key */
        post: operations["adminCreateMerchant"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/merchants/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One merchant */
        get: operations["adminGetMerchant"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/merchants/{id}/disable": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Disable a merchant (its calls get 403 MERCHANT_DISABLED) */
        post: operations["adminDisableMerchant"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/merchants/{id}/enable": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Enable a disabled merchant again */
        post: operations["adminEnableMerchant"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/merchants/{id}/keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A merchant's API keys, active and revoked */
        get: operations["adminListKeys"];
        put?: never;
        /** Add an API key (at most two active) */
        post: operations["adminAddKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/merchants/{id}/keys/{keyId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke an API key */
        delete: operations["adminRevokeKey"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/merchants/{id}/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Set default webhook URLs */
        put: operations["adminSetWebhookUrls"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/merchants/{id}/webhook-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Rotate the webhook secret (shown once); the replaced one keeps signing beside it for the overlap */
        post: operations["adminRotateWebhookSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/merchants/{id}/rate-limit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Set a merchant's request rate limit */
        put: operations["adminSetRateLimit"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/merchants/{id}/ip-allow-list": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A merchant's IP allow-list */
        get: operations["adminGetIpAllowList"];
        /**
         * Set a merchant's IP allow-list (an empty list removes it)
         * @description While set, the guarded calls (scope money: payouts and refunds; all: every call) from other addresses get 403 IP_NOT_ALLOWED. A malformed range is 400 VALIDATION_FAILED naming it (cidrs[i]); nothing changes.
         */
        put: operations["adminSetIpAllowList"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/rates/{currency}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Set the USDT reference rate and spreads */
        put: operations["adminSetRate"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/rates": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** All USDT rates */
        get: operations["adminListRates"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/webhooks/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Webhook events, newest first, optionally of one merchant or status */
        get: operations["adminListWebhookEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/webhooks/events/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One webhook event with its body and every delivery attempt */
        get: operations["adminGetWebhookEvent"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/webhooks/events/{id}/resend": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send a webhook event again now, with a fresh retry schedule */
        post: operations["adminResendWebhookEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/merchants/{id}/balances": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A merchant's five balances in one currency */
        get: operations["adminGetBalances"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/merchants/{id}/journal": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A merchant's journal entries, newest first */
        get: operations["adminGetJournal"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/merchants/{id}/credit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Grant a credit line or lower its unused part */
        post: operations["adminCredit"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/merchants/{id}/security": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Move funds from available into the security deposit, or back */
        post: operations["adminSecurityDeposit"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/merchants/{id}/adjustments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Correct a balance against the platform adjustments account (reason required) */
        post: operations["adminAdjust"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/merchants/{id}/fees": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Set a merchant's fee for one currency, method and direction */
        put: operations["adminSetFee"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/merchants/{id}/limits": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Set a merchant's amount bounds for one currency, method and direction */
        put: operations["adminSetLimits"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/ledger/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Check every ledger invariant; ok is false when any is violated */
        get: operations["adminVerifyLedger"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/ledger/settle": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Run the settlement job once (pending money past its delay moves to available) */
        post: operations["adminSettle"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/payouts/stuck": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Payouts in Processing unchanged for longer than olderThanSeconds, oldest first */
        get: operations["adminStuckPayouts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/payouts/{ref}/query": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Ask the upstream about a payout now and apply its answer (never resubmits) */
        post: operations["adminQueryPayout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/merchants/{id}/payout-approval": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A merchant's payout approval (maker-checker) setting */
        get: operations["adminGetPayoutApproval"];
        /**
         * Set a merchant's payout approval thresholds and timeout
         * @description Applies to payouts initiated from now on; payouts already pending keep their deadline.
         */
        put: operations["adminSetPayoutApproval"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/service/signing-key/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Rotate the service's webhook signing key (the replaced one stays listed for the overlap) */
        post: operations["adminRotateServiceKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/held-money": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Late money held for the operator, newest payment first */
        get: operations["adminListHeldMoney"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/held-money/{ref}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One held item */
        get: operations["adminGetHeldMoney"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/held-money/{ref}/return": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send held money back to the payer through its channel (422 PAYMENT_NOT_REFUNDABLE where the channel cannot) */
        post: operations["adminReturnHeldMoney"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/held-money/{ref}/credit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Credit held money to the merchant as a late payment (the payment's fee applies); sends payment.late_credited */
        post: operations["adminCreditHeldMoney"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/audit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The audit log of operator actions, newest first, optionally of one merchant or action */
        get: operations["adminListAudit"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/connectors": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every live connector: capabilities, base URL, credential state */
        get: operations["adminListConnectors"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/connectors/{name}/credentials": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Set or rotate a connector's credentials (stored encrypted; never shown again in full) */
        put: operations["adminSetConnectorCredentials"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/connectors/{name}/base-url": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Point a connector at the provider's test or live environment (null: the default) */
        put: operations["adminSetConnectorBaseUrl"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/routes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The routes: the defaults and every override, or the default and one merchant’s */
        get: operations["adminListRoutes"];
        /** Set which connectors, in order, serve a currency, method and direction (default or per merchant) */
        put: operations["adminSetRoute"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/payments/{ref}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Any merchant's payment, with its connector, upstream reference and collection state */
        get: operations["adminGetPayment"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/payouts/{ref}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Any merchant's payout, with its connector, fallbacks, upstream reference and the job's bookkeeping */
        get: operations["adminGetPayout"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/reconciliation/imports": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Import an upstream's statement of one day and compare it with our records (the same file again answers the earlier run) */
        post: operations["adminImportStatement"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/reconciliation/imports/csv": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Import a CSV statement sent as the request body (text/csv), the connector and day in the query */
        post: operations["adminImportStatementCsv"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/reconciliation/fetches": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Fetch a day's statement from the connector's statement API and compare it (once per connector and day: a second call answers the earlier run) */
        post: operations["adminFetchStatement"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/reconciliation/runs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Reconciliation runs, newest first */
        get: operations["adminListReconciliationRuns"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/reconciliation/runs/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One reconciliation run */
        get: operations["adminGetReconciliationRun"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/reconciliation/runs/{id}/lines": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A run's lines in the statement's order; unresolved=true: only those waiting for the operator */
        get: operations["adminListReconciliationLines"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/reconciliation/lines/{id}/resolve": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Resolve a line that did not match, with the reason (audited); the same reason again answers it unchanged */
        post: operations["adminResolveReconciliationLine"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/public-key": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The service public keys that sign webhooks (Signature header, picked by Signature-Key-Id) */
        get: operations["servicePublicKey"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/reports/{reportId}/download": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The CSV of a ready report, through the link report/status answered */
        get: operations["reportDownload"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Liveness: the process answers */
        get: operations["health"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/readyz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Readiness: the database answers and the service is not shutting down */
        get: operations["readiness"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Prometheus metrics
         * @description The whole page, or with `name[]` (repeatable) only the metrics of those names, as the Prometheus Python client does: a check that wants one figure then costs neither the other metrics' collection (some read the database) nor their text. Unknown names are left out; other query parameters (a plain `name` among them) are ignored.
         */
        get: operations["metrics"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface webhooks {
    "payment.succeeded": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A payment reached Success.
         * @description Sent to the webhookUrl given at creation, else your default URL for this kind; at least once, so deduplicate on event.id.
         */
        post: operations["paymentSucceededWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "payment.failed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A payment reached Failed (the upstream declined it).
         * @description Sent to the webhookUrl given at creation, else your default URL for this kind; at least once, so deduplicate on event.id.
         */
        post: operations["paymentFailedWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "payment.expired": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A payment reached Expired (30 minutes passed unpaid).
         * @description Sent to the webhookUrl given at creation, else your default URL for this kind; at least once, so deduplicate on event.id.
         */
        post: operations["paymentExpiredWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "payment.refunded": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A payment reached Refund.
         * @description Sent to the webhookUrl given at creation, else your default URL for this kind; at least once, so deduplicate on event.id.
         */
        post: operations["paymentRefundedWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "payment.late_credited": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Money that arrived after the payment expired was credited to you by the operator (the payment stays Expired; see lateCredit).
         * @description Sent to the webhookUrl given at creation, else your default URL for this kind; at least once, so deduplicate on event.id.
         */
        post: operations["paymentLate_creditedWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "payout.succeeded": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A payout reached Success.
         * @description Sent to the webhookUrl given at creation, else your default URL for this kind; at least once, so deduplicate on event.id.
         */
        post: operations["payoutSucceededWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "payout.failed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A payout reached Failed; its amount and fee are back in your balance.
         * @description Sent to the webhookUrl given at creation, else your default URL for this kind; at least once, so deduplicate on event.id.
         */
        post: operations["payoutFailedWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "payout.batch_completed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Every accepted item of a payout batch reached Success or Failed (sent once per batch).
         * @description Sent to the webhookUrl given at creation, else your default URL for this kind; at least once, so deduplicate on event.id.
         */
        post: operations["payoutBatch_completedWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "payout.pending_approval": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A payout above your approval threshold waits in PendingApproval (funds reserved) for payout/approve or payout/reject signed with another key.
         * @description Sent to the webhookUrl given at creation, else your default URL for this kind; at least once, so deduplicate on event.id.
         */
        post: operations["payoutPending_approvalWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface components {
    schemas: {
        /**
         * @description INR, EGP, NGN or IDR.
         * @enum {string}
         */
        Currency: "INR" | "EGP" | "NGN" | "IDR";
        /**
         * @description Pay-in method; which ones a currency offers is listed by payment/methods.
         * @enum {string}
         */
        PayInMethod: "NATIVE" | "TRANSFER" | "BNI" | "BRI" | "MANDIRI" | "PERMATA" | "QRIS" | "OVO" | "DANA" | "FAWRY" | "WALLET";
        /**
         * @description Payout method; NGN bank payouts are answered as TRANSFER.
         * @enum {string}
         */
        PayoutMethod: "BANK" | "UPI" | "TRANSFER" | "WALLET";
        /**
         * @description Pending -> Success | Failed | Expired; Success -> Refund.
         * @enum {string}
         */
        PaymentStatus: "Pending" | "Success" | "Failed" | "Expired" | "Refund";
        /**
         * @description Initiated -> Processing -> Success | Failed; Initiated -> Failed. Above your approval threshold: PendingApproval -> Initiated (approved) | Failed (rejected, expired).
         * @enum {string}
         */
        PayoutStatus: "PendingApproval" | "Initiated" | "Processing" | "Success" | "Failed";
        /**
         * @description What happened to the payment or payout.
         * @enum {string}
         */
        WebhookEventType: "payment.succeeded" | "payment.failed" | "payment.expired" | "payment.refunded" | "payment.late_credited" | "payout.succeeded" | "payout.failed" | "payout.batch_completed" | "payout.pending_approval";
        /**
         * @description pending (being delivered or retried), delivered, failed (retries exhausted), no_destination (no URL configured; nothing sent).
         * @enum {string}
         */
        WebhookDeliveryStatus: "pending" | "delivered" | "failed" | "no_destination";
        /**
         * @description Stable UPPER_SNAKE reason; docs/errors.md says when each is given.
         * @enum {string}
         */
        ErrorReason: "INVALID_JSON" | "INVALID_REQUEST" | "VALIDATION_FAILED" | "UNSUPPORTED_CURRENCY" | "UNSUPPORTED_METHOD" | "INVALID_BANK_CODE" | "BATCH_REFUSED" | "MISSING_CREDENTIALS" | "INVALID_TIMESTAMP" | "TIMESTAMP_OUT_OF_WINDOW" | "UNKNOWN_MERCHANT" | "INVALID_SIGNATURE" | "SIGNATURE_REUSED" | "UNAUTHORIZED" | "MERCHANT_DISABLED" | "METHOD_NOT_ENABLED" | "IP_NOT_ALLOWED" | "KEY_SCOPE" | "FORBIDDEN" | "APPROVER_SAME_KEY" | "NOT_FOUND" | "METHOD_NOT_ALLOWED" | "DUPLICATE_MERCHANT_REF" | "CONFLICT" | "PAYOUT_NOT_PENDING_APPROVAL" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "INSUFFICIENT_BALANCE" | "PAYMENT_NOT_REFUNDABLE" | "REFUND_WINDOW_EXPIRED" | "PAYMENT_NOT_SUCCESSFUL" | "INVALID_ACCOUNT" | "NAME_ENQUIRY_UNAVAILABLE" | "ACCOUNT_NAME_MISMATCH" | "RATE_LIMITED" | "INTERNAL_ERROR" | "UNAVAILABLE";
        /** @description The envelope of every error answer. */
        Error: {
            /**
             * @description The HTTP status as a string.
             * @example 400
             */
            code: string;
            message: components["schemas"]["ErrorReason"];
            data: {
                /** @description One human sentence. */
                detail: string;
                /** @description Validation failures only: each refused field. */
                errors?: {
                    field: string;
                    problem: string;
                }[];
            };
        };
        PaymentInitiateResult: {
            /** @description The reference the service assigned (UUID v7). */
            transactionRef: string;
            merchantRef: string;
            method: components["schemas"]["PayInMethod"];
            currency?: components["schemas"]["Currency"];
            /** @description Major units. */
            amount: number;
            /** @description Open in the payer's browser; valid for 30 minutes. */
            checkoutUrl: string;
            status: components["schemas"]["PaymentStatus"];
            /**
             * @description When the checkout closes and an unpaid payment becomes Expired.
             * @example 2026-11-22T10:00:00.000Z
             */
            expiresAt: string;
        };
        PaymentRecord: {
            transactionRef: string;
            merchantRef: string;
            method: components["schemas"]["PayInMethod"];
            currency: components["schemas"]["Currency"];
            /** @description Major units. */
            amount: number;
            name: string;
            email: string;
            phone: string;
            redirectUrl: string;
            webhookUrl?: string;
            status: components["schemas"]["PaymentStatus"];
            /** @description What the payer paid; 0 until the payment succeeded. */
            paidAmount: number;
            /** @description Fixed at creation; charged only when the payment succeeds. */
            fee: number;
            /**
             * @description ISO-8601 UTC.
             * @example 2026-11-22T10:00:00.000Z
             */
            createdAt: string;
            /**
             * @description ISO-8601 UTC.
             * @example 2026-11-22T10:00:00.000Z
             */
            updatedAt: string;
            /**
             * @description When the payment reached Success, Failed or Expired.
             * @example 2026-11-22T10:00:00.000Z
             */
            completedAt?: string;
            /**
             * @description ISO-8601 UTC.
             * @example 2026-11-22T10:00:00.000Z
             */
            expiresAt: string;
            /**
             * @description ISO-8601 UTC.
             * @example 2026-11-22T10:00:00.000Z
             */
            refundedAt?: string;
            /** @description UPPER_SNAKE, on Failed payments. */
            failureReason?: string;
            /** @description Would payment/refund be accepted now? */
            refundable: boolean;
            /**
             * @description Last moment of the refund window (successful payments of refundable methods).
             * @example 2026-11-22T10:00:00.000Z
             */
            refundableUntil?: string;
        };
        PaymentRefundResult: {
            transactionRef: string;
            merchantRef: string;
            currency: components["schemas"]["Currency"];
            method: components["schemas"]["PayInMethod"];
            /** @description Major units. */
            amount: number;
            /** @description What was paid, and so refunded. */
            paidAmount: number;
            /** @description The fee of the payment; a refund does not return it. */
            fee: number;
            status: components["schemas"]["PaymentStatus"];
            /**
             * @description ISO-8601 UTC.
             * @example 2026-11-22T10:00:00.000Z
             */
            refundedAt?: string;
        };
        PaymentMethods: {
            currency: components["schemas"]["Currency"];
            payin: {
                method: components["schemas"]["PayInMethod"];
                minAmount: number;
                maxAmount: number;
                fee: {
                    /** @description Percentage part in basis points (150 = 1.5 %). */
                    bps: number;
                    percent: number;
                    /** @description Fixed part in major units. */
                    fixed: number;
                };
                /** @description Can a successful payment be refunded? */
                refundable: boolean;
            }[];
            payout: {
                method: components["schemas"]["PayoutMethod"];
                minAmount: number;
                maxAmount: number;
                fee: {
                    /** @description Percentage part in basis points (150 = 1.5 %). */
                    bps: number;
                    percent: number;
                    /** @description Fixed part in major units. */
                    fixed: number;
                };
            }[];
        };
        PayoutInitiateResult: {
            /** @description The reference the service assigned (UUID v7). */
            transactionRef: string;
            merchantRef: string;
            method: components["schemas"]["PayoutMethod"];
            currency: components["schemas"]["Currency"];
            amount: number;
            /** @description Reserved with the amount; charged when the payout succeeds, returned when it fails. */
            fee: number;
            status: components["schemas"]["PayoutStatus"];
        };
        PayoutRecord: {
            transactionRef: string;
            merchantRef: string;
            method: components["schemas"]["PayoutMethod"];
            currency: components["schemas"]["Currency"];
            amount: number;
            fee: number;
            bankCode?: string;
            name: string;
            account: string;
            phone: string;
            email: string;
            webhookUrl?: string;
            status: components["schemas"]["PayoutStatus"];
            createdAt: string;
            updatedAt: string;
            /** @description When the payout reached Success or Failed. */
            completedAt?: string;
            /** @description UPPER_SNAKE, on Failed payouts (e.g. INVALID_ACCOUNT). */
            failureReason?: string;
            /** @description The upstream's reference of the transfer (its payout id, NIP session id ...). */
            upstreamRef?: string;
            /** @description The bank's reference of the transfer (India: the UTR), where the channel gives one besides its own id. */
            utr?: string;
            /** @description PendingApproval only: when the payout fails with APPROVAL_EXPIRED unless approved or rejected first. */
            approvalExpiresAt?: string;
            /** @description Present when the payout was initiated with nameCheck: true: the check it passed. */
            nameCheck?: {
                /** @description The account holder's name as the bank resolved it. */
                resolvedName: string;
                /** @description How well `name` matched it, 0 to 1 (docs/payouts.md, Name check). */
                score: number;
                /** @description The score a match needed. */
                threshold: number;
            };
        };
        AccountInquiryResult: {
            /**
             * @description The account holder's name as the bank resolved it.
             * @example ASHA RAO
             */
            accountName: string;
            bankCode: string | null;
            bankName: string | null;
            /**
             * @description The account, masked but for its last four characters.
             * @example ****5678
             */
            account: string;
        };
        BankEntry: {
            bankCode: string;
            bankName: string;
        };
        Balance: {
            currency: components["schemas"]["Currency"];
            available: number;
            pending: number;
            held: number;
            credit: number;
            security: number;
        };
        UsdtRate: {
            currency: components["schemas"]["Currency"];
            /** @description Local currency credited per USDT deposited (reference less the deposit spread). */
            deposit: number;
            /** @description Local currency charged per USDT withdrawn (reference plus the withdraw spread). */
            withdraw: number;
            /** @description When the operator set this rate (ISO-8601 UTC). */
            updatedAt: string;
        };
        /** @description One item: accepted (transactionRef, amount, fee, status) or refused (reason, detail, errors). */
        PayoutBatchItemResult: {
            /** @description The item's position in items, from 0. */
            index: number;
            /** @description The item's merchantRef (absent when the item had no usable one). */
            merchantRef?: string;
            /** @enum {string} */
            result: "accepted" | "refused";
            /** @description Accepted items: the payout created. */
            transactionRef?: string;
            amount?: number;
            /** @description Reserved with the amount. */
            fee?: number;
            status?: components["schemas"]["PayoutStatus"];
            /** @description Refused items: the reason payout/initiate would have answered (VALIDATION_FAILED, INVALID_BANK_CODE, DUPLICATE_MERCHANT_REF, INSUFFICIENT_BALANCE ...). */
            reason?: string;
            detail?: string;
            errors?: {
                field: string;
                problem: string;
            }[];
        };
        PayoutBatchResult: {
            /** @description The reference the service assigned to the batch (UUID v7). */
            batchId: string;
            merchantRef: string;
            atomic: boolean;
            itemCount: number;
            accepted: number;
            refused: number;
            createdAt: string;
            /** @description Every item, in the order sent. */
            items: components["schemas"]["PayoutBatchItemResult"][];
        };
        PayoutBatchStatus: {
            batchId: string;
            merchantRef: string;
            itemCount: number;
            accepted: number;
            refused: number;
            /** @description True once every accepted item is Success or Failed. */
            completed: boolean;
            createdAt: string;
            completedAt?: string;
            /** @description Items per status; Refused counts the items refused at intake. */
            counts: {
                PendingApproval: number;
                Initiated: number;
                Processing: number;
                Success: number;
                Failed: number;
                Refused: number;
            };
            items: {
                index: number;
                merchantRef?: string;
                transactionRef?: string;
                /**
                 * @description The payout's status, or Refused.
                 * @enum {string}
                 */
                status: "PendingApproval" | "Initiated" | "Processing" | "Success" | "Failed" | "Refused";
                /** @description Failed: why the payout failed; Refused: the intake reason. */
                failureReason?: string;
            }[];
        };
        WebhookEvent: {
            /** @description The event id; also the webhook-id header. Deduplicate on it. */
            id: string;
            merchantId: string;
            type: components["schemas"]["WebhookEventType"];
            /** @enum {string} */
            resourceKind: "payment" | "payout" | "payout_batch";
            /** @description The transactionRef of the payment or payout, or the batchId of a payout batch */
            resourceRef: string;
            url: string | null;
            status: components["schemas"]["WebhookDeliveryStatus"];
            attemptCount: number;
            nextAttemptAt: string | null;
            createdAt: string;
            deliveredAt: string | null;
            lastError: string | null;
        };
        WebhookAttempt: {
            attemptNo: number;
            startedAt: string;
            durationMs: number;
            httpStatus: number | null;
            error: string | null;
            responseSnippet: string | null;
        };
        WebhookEventDetail: {
            /** @description The event id; also the webhook-id header. Deduplicate on it. */
            id: string;
            merchantId: string;
            type: components["schemas"]["WebhookEventType"];
            /** @enum {string} */
            resourceKind: "payment" | "payout" | "payout_batch";
            /** @description The transactionRef of the payment or payout, or the batchId of a payout batch */
            resourceRef: string;
            url: string | null;
            status: components["schemas"]["WebhookDeliveryStatus"];
            attemptCount: number;
            nextAttemptAt: string | null;
            createdAt: string;
            deliveredAt: string | null;
            lastError: string | null;
            /** @description The body as sent: the record, flat, plus its event object */
            payload: unknown;
            attempts: components["schemas"]["WebhookAttempt"][];
        };
        WebhookEventPage: {
            events: components["schemas"]["WebhookEvent"][];
            nextBefore: string | null;
        };
        /** @description The payment record exactly as payment/status returns it, flat, plus the event (and lateCredit on payment.late_credited). */
        PaymentWebhook: components["schemas"]["PaymentRecord"] & {
            event: {
                /** @description The event id, also sent as the webhook-id header; deduplicate on it. */
                id: string;
                /** @enum {string} */
                type: "payment.succeeded" | "payment.failed" | "payment.expired" | "payment.refunded" | "payment.late_credited";
                createdAt: string;
            };
            /** @description payment.late_credited only: the late money the operator credited. */
            lateCredit?: {
                /** @description What arrived after expiry, major units */
                paidAmount: number;
                /** @description The payment's fee, capped at paidAmount */
                fee: number;
                /** @description paidAmount - fee, now in pending like any payment */
                credited: number;
                receivedAt: string;
                creditedAt: string | null;
            };
        };
        /** @description The payout record exactly as payout/status returns it, flat, plus the event. */
        PayoutWebhook: components["schemas"]["PayoutRecord"] & {
            event: {
                /** @description The event id, also sent as the webhook-id header; deduplicate on it. */
                id: string;
                /** @enum {string} */
                type: "payout.succeeded" | "payout.failed" | "payout.pending_approval";
                createdAt: string;
            };
        };
        /** @description The batch record exactly as payout/batchStatus returns it, flat, plus the event. */
        PayoutBatchWebhook: components["schemas"]["PayoutBatchStatus"] & {
            event: {
                /** @description The event id, also sent as the webhook-id header; deduplicate on it. */
                id: string;
                /** @enum {string} */
                type: "payout.batch_completed";
                createdAt: string;
            };
        };
        ServiceKeyEntry: {
            /** @description As webhooks carry it in the Signature-Key-Id header. */
            keyId: string;
            /** @enum {string} */
            algorithm: "RSA-SHA512";
            /** @description SPKI PEM */
            publicKeyPem: string;
            /** @description current signs now; previous was replaced and is listed until retiresAt. */
            status: "current" | "previous";
            createdAt: string;
            /** @description When a previous key stops being listed; null for the current key. */
            retiresAt: string | null;
        };
        PublicKey: {
            /** @enum {string} */
            algorithm: "RSA-SHA512";
            /** @description SPKI PEM of the current service RSA key (the one signing now) */
            publicKeyPem: string;
            /** @description The current key's id. */
            keyId: string;
            /** @description The current key first, then replaced keys still within their overlap. */
            keys: components["schemas"]["ServiceKeyEntry"][];
        };
        /** @enum {string} */
        KeyType: "RSA-SHA512" | "HMAC-SHA256";
        /**
         * @description What a key may call: read (lookups), payments (pay-in and refunds, and reads), payouts (payouts, and reads) or all.
         * @enum {string}
         */
        KeyScope: "read" | "payments" | "payouts" | "all";
        /** @description A merchant's IP allow-list. */
        IpAllowList: {
            /** @description Normalised ranges (an address alone is shown as /32 or /128); empty when no allow-list is set. */
            cidrs: string[];
            /**
             * @description money: payouts and refunds only; all: every merchant call.
             * @enum {string}
             */
            scope: "money" | "all";
        };
        Merchant: {
            id: string;
            name: string;
            /** @enum {string} */
            status: "active" | "disabled";
            /** @enum {string} */
            mode: "sandbox" | "live";
            rateLimitPerSecond: number;
            paymentWebhookUrl: string | null;
            payoutWebhookUrl: string | null;
            createdAt: string;
        };
        ApiKey: {
            id: string;
            type: components["schemas"]["KeyType"];
            scope: components["schemas"]["KeyScope"];
            label: string | null;
            /** @enum {string} */
            status: "active" | "revoked";
            createdAt: string;
            publicKeyPem: string | null;
        };
        /** @description A new key as its owner sees it once. */
        IssuedKey: {
            keyId: string;
            type: components["schemas"]["KeyType"];
            scope: components["schemas"]["KeyScope"];
            /** @description Generated RSA private key, shown once, when no public key was given. */
            privateKeyPem?: string;
            publicKeyPem?: string;
            /** @description HMAC-SHA256 keys: the secret, shown once. */
            secret?: string;
        };
        RateSetting: {
            currency: components["schemas"]["Currency"];
            /** @description Local currency per USDT. */
            reference: number;
            depositSpreadBps: number;
            withdrawSpreadBps: number;
            deposit: number;
            withdraw: number;
            setAt: string;
            setBy: string;
        };
        PaymentPage: {
            items: components["schemas"]["PaymentRecord"][];
            nextCursor: string | null;
        };
        PayoutPage: {
            items: components["schemas"]["PayoutRecord"][];
            nextCursor: string | null;
        };
        StatementLine: {
            /** @description The ledger entry; one entry may move several buckets (one line each). */
            entryId: string;
            /** @description What moved the money: payment_credit, refund, refund_reversal, payout_reserve, payout_release, payout_complete, settlement, late_credit, credit_grant, credit_lower, security_deposit, security_release, adjustment. */
            type: string;
            /**
             * @description The balance moved.
             * @enum {string}
             */
            bucket: "available" | "pending" | "held" | "credit" | "security";
            /** @description Signed major units: positive into the bucket, negative out of it. */
            amount: number;
            /** @description What the platform earned in this entry (a payment fee, a paid-out payout fee); 0 otherwise. */
            fee: number;
            /** @description The bucket's balance right after this movement. */
            balanceAfter: number;
            /** @description The transactionRef of the payment this belongs to. */
            paymentRef?: string;
            /** @description The transactionRef of the payout this belongs to. */
            payoutRef?: string;
            /** @description ISO-8601 UTC. */
            createdAt: string;
        };
        StatementPage: {
            items: components["schemas"]["StatementLine"][];
            nextCursor: string | null;
        };
        SettlementDay: {
            /**
             * @description The UTC day, YYYY-MM-DD.
             * @example 2026-11-22
             */
            date: string;
            currency: components["schemas"]["Currency"];
            /** @description Gross paid in by successful (and late credited) payments, fees included. */
            collected: number;
            /** @description Refunded to payers, less refunds the upstream refused and returned. */
            refunded: number;
            /** @description Payout amounts paid to beneficiaries (payouts that reached Success), fees excluded. */
            paidOut: number;
            /** @description Fees charged: payment fees and the fees of payouts paid out. */
            fees: number;
            /** @description Moved from pending to available (or to repaying credit) by settlement. */
            settled: number;
            /** @description The change of your five balances together over the day: the sum of the statement amounts of that day. */
            net: number;
        };
        Settlements: {
            currency: components["schemas"]["Currency"];
            /** @description Newest day first; days without movement are left out. */
            days: components["schemas"]["SettlementDay"][];
        };
        /**
         * @description What the CSV holds.
         * @enum {string}
         */
        ReportType: "payments" | "payouts" | "statement" | "settlements";
        /**
         * @description Pending -> Running -> Ready | Failed; Ready -> Expired when the file is deleted (24 hours after it was ready).
         * @enum {string}
         */
        ReportStatus: "Pending" | "Running" | "Ready" | "Failed" | "Expired";
        Report: {
            reportId: string;
            type: components["schemas"]["ReportType"];
            status: components["schemas"]["ReportStatus"];
            /** @description Data rows written so far (the header not counted). */
            rowCount: number;
            createdAt: string;
            completedAt?: string;
            /** @description Ready: when the file is deleted. Before: when an unwritten request is given up. */
            expiresAt: string;
            /** @description Ready only: GET it (no signature headers) for the CSV; valid 15 minutes; ask report/status again for a fresh one. */
            downloadUrl?: string;
            downloadUrlExpiresAt?: string;
            /** @description Failed only: EXPORT_FAILED; ask for the report again. */
            failureReason?: string;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    accountBalance: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    currency: components["schemas"]["Currency"];
                };
            };
        };
        responses: {
            /** @description The five balances, from the ledger. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 200 */
                        code: string;
                        /** @example SUCCESS */
                        message: string;
                        data: components["schemas"]["Balance"];
                    };
                };
            };
            /** @description The request was refused and changed nothing: INVALID_JSON, VALIDATION_FAILED (with data.errors), UNSUPPORTED_CURRENCY, UNSUPPORTED_METHOD, INVALID_BANK_CODE. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Authentication failed: MISSING_CREDENTIALS, INVALID_TIMESTAMP, TIMESTAMP_OUT_OF_WINDOW, UNKNOWN_MERCHANT, INVALID_SIGNATURE, SIGNATURE_REUSED. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description MERCHANT_DISABLED; METHOD_NOT_ENABLED for what this merchant may not use; IP_NOT_ALLOWED from an address outside the merchant's IP allow-list; KEY_SCOPE when the signing key's scope does not cover this call (see x-key-scope). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: the body is over 64 KiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: send the body as application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: over the merchant's request rate; retry after the Retry-After seconds. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR: nothing partial was stored; quote the Request-Id header. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAVAILABLE: shutting down or the database is unreachable; safe to retry. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    accountUsdtRate: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    currency: components["schemas"]["Currency"];
                };
            };
        };
        responses: {
            /** @description The current rates. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 200 */
                        code: string;
                        /** @example SUCCESS */
                        message: string;
                        data: components["schemas"]["UsdtRate"];
                    };
                };
            };
            /** @description The request was refused and changed nothing: INVALID_JSON, VALIDATION_FAILED (with data.errors), UNSUPPORTED_CURRENCY, UNSUPPORTED_METHOD, INVALID_BANK_CODE. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Authentication failed: MISSING_CREDENTIALS, INVALID_TIMESTAMP, TIMESTAMP_OUT_OF_WINDOW, UNKNOWN_MERCHANT, INVALID_SIGNATURE, SIGNATURE_REUSED. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description MERCHANT_DISABLED; METHOD_NOT_ENABLED for what this merchant may not use; IP_NOT_ALLOWED from an address outside the merchant's IP allow-list; KEY_SCOPE when the signing key's scope does not cover this call (see x-key-scope). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: the operator has not set a rate for this currency yet. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: the body is over 64 KiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: send the body as application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: over the merchant's request rate; retry after the Retry-After seconds. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR: nothing partial was stored; quote the Request-Id header. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAVAILABLE: shutting down or the database is unreachable; safe to retry. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    payoutBankCodes: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    currency: components["schemas"]["Currency"];
                };
            };
        };
        responses: {
            /** @description The banks of the currency. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 200 */
                        code: string;
                        /** @example SUCCESS */
                        message: string;
                        data: components["schemas"]["BankEntry"][];
                    };
                };
            };
            /** @description The request was refused and changed nothing: INVALID_JSON, VALIDATION_FAILED (with data.errors), UNSUPPORTED_CURRENCY, UNSUPPORTED_METHOD, INVALID_BANK_CODE. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Authentication failed: MISSING_CREDENTIALS, INVALID_TIMESTAMP, TIMESTAMP_OUT_OF_WINDOW, UNKNOWN_MERCHANT, INVALID_SIGNATURE, SIGNATURE_REUSED. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description MERCHANT_DISABLED; METHOD_NOT_ENABLED for what this merchant may not use; IP_NOT_ALLOWED from an address outside the merchant's IP allow-list; KEY_SCOPE when the signing key's scope does not cover this call (see x-key-scope). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: the body is over 64 KiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: send the body as application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: over the merchant's request rate; retry after the Retry-After seconds. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR: nothing partial was stored; quote the Request-Id header. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAVAILABLE: shutting down or the database is unreachable; safe to retry. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    paymentInitiate: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description Your own reference: 1 to 64 of A-Z a-z 0-9 _ -. Unique among your payments.
                     * @example order-10023
                     */
                    merchantRef: string & unknown;
                    method: components["schemas"]["PayInMethod"];
                    currency: components["schemas"]["Currency"];
                    /**
                     * @description Major units, at most 2 decimals, within the method bounds.
                     * @example 1500.5
                     */
                    amount: number;
                    /** @description Payer name. */
                    name: string & unknown;
                    /** @description Payer e-mail. */
                    email: string & unknown;
                    /** @description Payer phone, 6 to 15 digits. EGP WALLET and FAWRY, IDR OVO and DANA need a mobile number of that country. */
                    phone: string & unknown;
                    /** @description Where the payer returns after paying: https (sandbox merchants may use http://localhost). */
                    redirectUrl: string;
                    /** @description Where this payment's webhooks go; defaults to your configured payment webhook URL. */
                    webhookUrl?: string;
                };
            };
        };
        responses: {
            /** @description The payment (new, or the original one for a repeated body); currency is absent for INR. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 200 */
                        code: string;
                        /** @example SUCCESS */
                        message: string;
                        data: components["schemas"]["PaymentInitiateResult"];
                    };
                };
            };
            /** @description The request was refused and changed nothing: INVALID_JSON, VALIDATION_FAILED (with data.errors), UNSUPPORTED_CURRENCY, UNSUPPORTED_METHOD, INVALID_BANK_CODE. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Authentication failed: MISSING_CREDENTIALS, INVALID_TIMESTAMP, TIMESTAMP_OUT_OF_WINDOW, UNKNOWN_MERCHANT, INVALID_SIGNATURE, SIGNATURE_REUSED. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description MERCHANT_DISABLED; METHOD_NOT_ENABLED for what this merchant may not use; IP_NOT_ALLOWED from an address outside the merchant's IP allow-list; KEY_SCOPE when the signing key's scope does not cover this call (see x-key-scope). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description DUPLICATE_MERCHANT_REF: the merchantRef was used with a different body. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: the body is over 64 KiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: send the body as application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: over the merchant's request rate; retry after the Retry-After seconds. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR: nothing partial was stored; quote the Request-Id header. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAVAILABLE: shutting down or the database is unreachable; safe to retry. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    paymentStatus: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description Exactly one of transactionRef and merchantRef. */
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description The reference the service assigned (UUID v7).
                     * @example 0193a8f2-7c1e-7d3a-9b5e-2f4c6d8e0a1b
                     */
                    transactionRef?: string;
                    /**
                     * @description Your own reference: 1 to 64 of A-Z a-z 0-9 _ -. Unique among your payments.
                     * @example order-10023
                     */
                    merchantRef?: string & unknown;
                };
            };
        };
        responses: {
            /** @description The payment record. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 200 */
                        code: string;
                        /** @example SUCCESS */
                        message: string;
                        data: components["schemas"]["PaymentRecord"];
                    };
                };
            };
            /** @description The request was refused and changed nothing: INVALID_JSON, VALIDATION_FAILED (with data.errors), UNSUPPORTED_CURRENCY, UNSUPPORTED_METHOD, INVALID_BANK_CODE. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Authentication failed: MISSING_CREDENTIALS, INVALID_TIMESTAMP, TIMESTAMP_OUT_OF_WINDOW, UNKNOWN_MERCHANT, INVALID_SIGNATURE, SIGNATURE_REUSED. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description MERCHANT_DISABLED; METHOD_NOT_ENABLED for what this merchant may not use; IP_NOT_ALLOWED from an address outside the merchant's IP allow-list; KEY_SCOPE when the signing key's scope does not cover this call (see x-key-scope). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: no such payment for this merchant (another merchant's looks the same). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: the body is over 64 KiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: send the body as application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: over the merchant's request rate; retry after the Retry-After seconds. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR: nothing partial was stored; quote the Request-Id header. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAVAILABLE: shutting down or the database is unreachable; safe to retry. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    paymentFetch: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description Exactly one of transactionRef and merchantRef. */
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description The reference the service assigned (UUID v7).
                     * @example 0193a8f2-7c1e-7d3a-9b5e-2f4c6d8e0a1b
                     */
                    transactionRef?: string;
                    /**
                     * @description Your own reference: 1 to 64 of A-Z a-z 0-9 _ -. Unique among your payments.
                     * @example order-10023
                     */
                    merchantRef?: string & unknown;
                };
            };
        };
        responses: {
            /** @description The payment record. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 200 */
                        code: string;
                        /** @example SUCCESS */
                        message: string;
                        data: components["schemas"]["PaymentRecord"];
                    };
                };
            };
            /** @description The request was refused and changed nothing: INVALID_JSON, VALIDATION_FAILED (with data.errors), UNSUPPORTED_CURRENCY, UNSUPPORTED_METHOD, INVALID_BANK_CODE. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Authentication failed: MISSING_CREDENTIALS, INVALID_TIMESTAMP, TIMESTAMP_OUT_OF_WINDOW, UNKNOWN_MERCHANT, INVALID_SIGNATURE, SIGNATURE_REUSED. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description MERCHANT_DISABLED; METHOD_NOT_ENABLED for what this merchant may not use; IP_NOT_ALLOWED from an address outside the merchant's IP allow-list; KEY_SCOPE when the signing key's scope does not cover this call (see x-key-scope). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: no such payment for this merchant (another merchant's looks the same). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: the body is over 64 KiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: send the body as application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: over the merchant's request rate; retry after the Retry-After seconds. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR: nothing partial was stored; quote the Request-Id header. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAVAILABLE: shutting down or the database is unreachable; safe to retry. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    paymentRefund: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description The reference the service assigned (UUID v7).
                     * @example 0193a8f2-7c1e-7d3a-9b5e-2f4c6d8e0a1b
                     */
                    transactionRef: string;
                };
            };
        };
        responses: {
            /** @description The refund (made now, or the one made before); status is Refund. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 200 */
                        code: string;
                        /** @example SUCCESS */
                        message: string;
                        data: components["schemas"]["PaymentRefundResult"];
                    };
                };
            };
            /** @description The request was refused and changed nothing: INVALID_JSON, VALIDATION_FAILED (with data.errors), UNSUPPORTED_CURRENCY, UNSUPPORTED_METHOD, INVALID_BANK_CODE. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Authentication failed: MISSING_CREDENTIALS, INVALID_TIMESTAMP, TIMESTAMP_OUT_OF_WINDOW, UNKNOWN_MERCHANT, INVALID_SIGNATURE, SIGNATURE_REUSED. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description MERCHANT_DISABLED; METHOD_NOT_ENABLED for what this merchant may not use; IP_NOT_ALLOWED from an address outside the merchant's IP allow-list; KEY_SCOPE when the signing key's scope does not cover this call (see x-key-scope). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: no such payment for this merchant (another merchant's looks the same). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: the body is over 64 KiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: send the body as application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYMENT_NOT_SUCCESSFUL, PAYMENT_NOT_REFUNDABLE, REFUND_WINDOW_EXPIRED or INSUFFICIENT_BALANCE; nothing was refunded. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: over the merchant's request rate; retry after the Retry-After seconds. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR: nothing partial was stored; quote the Request-Id header. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAVAILABLE: shutting down or the database is unreachable; safe to retry. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    paymentMethods: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    currency: components["schemas"]["Currency"];
                };
            };
        };
        responses: {
            /** @description The methods of the currency with your bounds and fees. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 200 */
                        code: string;
                        /** @example SUCCESS */
                        message: string;
                        data: components["schemas"]["PaymentMethods"];
                    };
                };
            };
            /** @description The request was refused and changed nothing: INVALID_JSON, VALIDATION_FAILED (with data.errors), UNSUPPORTED_CURRENCY, UNSUPPORTED_METHOD, INVALID_BANK_CODE. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Authentication failed: MISSING_CREDENTIALS, INVALID_TIMESTAMP, TIMESTAMP_OUT_OF_WINDOW, UNKNOWN_MERCHANT, INVALID_SIGNATURE, SIGNATURE_REUSED. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description MERCHANT_DISABLED; METHOD_NOT_ENABLED for what this merchant may not use; IP_NOT_ALLOWED from an address outside the merchant's IP allow-list; KEY_SCOPE when the signing key's scope does not cover this call (see x-key-scope). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: the body is over 64 KiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: send the body as application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: over the merchant's request rate; retry after the Retry-After seconds. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR: nothing partial was stored; quote the Request-Id header. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAVAILABLE: shutting down or the database is unreachable; safe to retry. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    payoutInitiate: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description Your own reference: 1 to 64 of A-Z a-z 0-9 _ -. Unique among your payouts.
                     * @example wd-10023
                     */
                    merchantRef: string & unknown;
                    currency: components["schemas"]["Currency"];
                    method: components["schemas"]["PayoutMethod"];
                    /**
                     * @description Major units, at most 2 decimals, within the method bounds. The fee is charged on top.
                     * @example 2500
                     */
                    amount: number;
                    /**
                     * @description INR BANK: the 11-character IFSC; NGN, IDR, EGP BANK: a code from payout/bankCode; omitted for INR UPI and EGP WALLET.
                     * @example HDFC0001234
                     */
                    bankCode?: string;
                    /** @description Beneficiary name. */
                    name: string & unknown;
                    /**
                     * @description Bank account number (digits; NGN 10 digits), UPI VPA (INR UPI) or 11-digit mobile number (EGP WALLET).
                     * @example 50100012345678
                     */
                    account: string;
                    /** @description Beneficiary phone, 6 to 15 digits. */
                    phone: string & unknown;
                    /** @description Beneficiary e-mail. */
                    email: string & unknown;
                    /** @description Where this payout's webhooks go; defaults to your configured payout webhook URL. */
                    webhookUrl?: string;
                    /** @description true: resolve the account's holder first and refuse 422 ACCOUNT_NAME_MISMATCH (nothing reserved or stored) when it does not match name; the record then carries nameCheck {resolvedName, score, threshold}. Part of the request: a repeat needs the same value. */
                    nameCheck?: boolean;
                };
            };
        };
        responses: {
            /** @description The payout (new, or the original one for a repeated body). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 200 */
                        code: string;
                        /** @example SUCCESS */
                        message: string;
                        data: components["schemas"]["PayoutInitiateResult"];
                    };
                };
            };
            /** @description The request was refused and changed nothing: INVALID_JSON, VALIDATION_FAILED (with data.errors), UNSUPPORTED_CURRENCY, UNSUPPORTED_METHOD, INVALID_BANK_CODE. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Authentication failed: MISSING_CREDENTIALS, INVALID_TIMESTAMP, TIMESTAMP_OUT_OF_WINDOW, UNKNOWN_MERCHANT, INVALID_SIGNATURE, SIGNATURE_REUSED. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description MERCHANT_DISABLED; METHOD_NOT_ENABLED for what this merchant may not use; IP_NOT_ALLOWED from an address outside the merchant's IP allow-list; KEY_SCOPE when the signing key's scope does not cover this call (see x-key-scope). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description DUPLICATE_MERCHANT_REF: the merchantRef was used with a different body. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: the body is over 64 KiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: send the body as application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INSUFFICIENT_BALANCE: amount + fee exceeds available + credit; nothing was stored. With nameCheck: ACCOUNT_NAME_MISMATCH, INVALID_ACCOUNT or NAME_ENQUIRY_UNAVAILABLE, nothing reserved or stored. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: over the merchant's request rate; retry after the Retry-After seconds. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR: nothing partial was stored; quote the Request-Id header. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAVAILABLE: shutting down, the database is unreachable, or (nameCheck) the bank did not answer the name enquiry; nothing was stored, safe to retry. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    payoutApprove: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description The reference the service assigned (UUID v7).
                     * @example 0193a8f2-7c1e-7d3a-9b5e-2f4c6d8e0a1b
                     */
                    transactionRef: string;
                    /** @description Why; kept on the payout for your records. */
                    reason?: string;
                };
            };
        };
        responses: {
            /** @description The payout afterwards (Initiated). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 200 */
                        code: string;
                        /** @example SUCCESS */
                        message: string;
                        data: components["schemas"]["PayoutRecord"];
                    };
                };
            };
            /** @description The request was refused and changed nothing: INVALID_JSON, VALIDATION_FAILED (with data.errors), UNSUPPORTED_CURRENCY, UNSUPPORTED_METHOD, INVALID_BANK_CODE. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Authentication failed: MISSING_CREDENTIALS, INVALID_TIMESTAMP, TIMESTAMP_OUT_OF_WINDOW, UNKNOWN_MERCHANT, INVALID_SIGNATURE, SIGNATURE_REUSED. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description MERCHANT_DISABLED; IP_NOT_ALLOWED from an address outside the merchant's IP allow-list; KEY_SCOPE when the signing key's scope does not cover this call (see x-key-scope); APPROVER_SAME_KEY: signed with the key that initiated the payout, use another of your keys. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: no such payout of yours. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYOUT_NOT_PENDING_APPROVAL: the payout is not (or no longer) waiting for approval. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: the body is over 64 KiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: send the body as application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: over the merchant's request rate; retry after the Retry-After seconds. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR: nothing partial was stored; quote the Request-Id header. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAVAILABLE: shutting down or the database is unreachable; safe to retry. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    payoutReject: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description The reference the service assigned (UUID v7).
                     * @example 0193a8f2-7c1e-7d3a-9b5e-2f4c6d8e0a1b
                     */
                    transactionRef: string;
                    /** @description Why; kept on the payout for your records. */
                    reason?: string;
                };
            };
        };
        responses: {
            /** @description The payout afterwards (Failed). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 200 */
                        code: string;
                        /** @example SUCCESS */
                        message: string;
                        data: components["schemas"]["PayoutRecord"];
                    };
                };
            };
            /** @description The request was refused and changed nothing: INVALID_JSON, VALIDATION_FAILED (with data.errors), UNSUPPORTED_CURRENCY, UNSUPPORTED_METHOD, INVALID_BANK_CODE. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Authentication failed: MISSING_CREDENTIALS, INVALID_TIMESTAMP, TIMESTAMP_OUT_OF_WINDOW, UNKNOWN_MERCHANT, INVALID_SIGNATURE, SIGNATURE_REUSED. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description MERCHANT_DISABLED; IP_NOT_ALLOWED from an address outside the merchant's IP allow-list; KEY_SCOPE when the signing key's scope does not cover this call (see x-key-scope); APPROVER_SAME_KEY: signed with the key that initiated the payout, use another of your keys. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: no such payout of yours. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYOUT_NOT_PENDING_APPROVAL: the payout is not (or no longer) waiting for approval. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: the body is over 64 KiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: send the body as application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: over the merchant's request rate; retry after the Retry-After seconds. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR: nothing partial was stored; quote the Request-Id header. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAVAILABLE: shutting down or the database is unreachable; safe to retry. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    payoutAccountInquiry: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    currency: components["schemas"]["Currency"];
                    method: components["schemas"]["PayoutMethod"];
                    /**
                     * @description INR BANK: the 11-character IFSC; NGN, IDR, EGP BANK: a code from payout/bankCode; omitted for INR UPI and EGP WALLET.
                     * @example HDFC0001234
                     */
                    bankCode?: string;
                    /**
                     * @description Bank account number (digits; NGN 10 digits), UPI VPA (INR UPI) or 11-digit mobile number (EGP WALLET).
                     * @example 50100012345678
                     */
                    account: string;
                };
            };
        };
        responses: {
            /** @description The account holder. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 200 */
                        code: string;
                        /** @example SUCCESS */
                        message: string;
                        data: components["schemas"]["AccountInquiryResult"];
                    };
                };
            };
            /** @description The request was refused and changed nothing: INVALID_JSON, VALIDATION_FAILED (with data.errors), UNSUPPORTED_CURRENCY, UNSUPPORTED_METHOD, INVALID_BANK_CODE. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Authentication failed: MISSING_CREDENTIALS, INVALID_TIMESTAMP, TIMESTAMP_OUT_OF_WINDOW, UNKNOWN_MERCHANT, INVALID_SIGNATURE, SIGNATURE_REUSED. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description MERCHANT_DISABLED; METHOD_NOT_ENABLED for what this merchant may not use; IP_NOT_ALLOWED from an address outside the merchant's IP allow-list; KEY_SCOPE when the signing key's scope does not cover this call (see x-key-scope). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: the body is over 64 KiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: send the body as application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INVALID_ACCOUNT: the bank has no such account; NAME_ENQUIRY_UNAVAILABLE: the provider of these payouts cannot resolve names. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: over the merchant's request rate; retry after the Retry-After seconds. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR: nothing partial was stored; quote the Request-Id header. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAVAILABLE: the bank did not answer the name enquiry in time (or the service is shutting down); safe to retry. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    payoutStatus: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description Exactly one of transactionRef and merchantRef. */
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description The reference the service assigned (UUID v7).
                     * @example 0193a8f2-7c1e-7d3a-9b5e-2f4c6d8e0a1b
                     */
                    transactionRef?: string;
                    /**
                     * @description Your own reference: 1 to 64 of A-Z a-z 0-9 _ -. Unique among your payouts.
                     * @example wd-10023
                     */
                    merchantRef?: string & unknown;
                };
            };
        };
        responses: {
            /** @description The payout record. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 200 */
                        code: string;
                        /** @example SUCCESS */
                        message: string;
                        data: components["schemas"]["PayoutRecord"];
                    };
                };
            };
            /** @description The request was refused and changed nothing: INVALID_JSON, VALIDATION_FAILED (with data.errors), UNSUPPORTED_CURRENCY, UNSUPPORTED_METHOD, INVALID_BANK_CODE. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Authentication failed: MISSING_CREDENTIALS, INVALID_TIMESTAMP, TIMESTAMP_OUT_OF_WINDOW, UNKNOWN_MERCHANT, INVALID_SIGNATURE, SIGNATURE_REUSED. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description MERCHANT_DISABLED; METHOD_NOT_ENABLED for what this merchant may not use; IP_NOT_ALLOWED from an address outside the merchant's IP allow-list; KEY_SCOPE when the signing key's scope does not cover this call (see x-key-scope). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: no such payout for this merchant (another merchant's looks the same). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: the body is over 64 KiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: send the body as application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: over the merchant's request rate; retry after the Retry-After seconds. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR: nothing partial was stored; quote the Request-Id header. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAVAILABLE: shutting down or the database is unreachable; safe to retry. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    payoutFetch: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description Exactly one of transactionRef and merchantRef. */
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description The reference the service assigned (UUID v7).
                     * @example 0193a8f2-7c1e-7d3a-9b5e-2f4c6d8e0a1b
                     */
                    transactionRef?: string;
                    /**
                     * @description Your own reference: 1 to 64 of A-Z a-z 0-9 _ -. Unique among your payouts.
                     * @example wd-10023
                     */
                    merchantRef?: string & unknown;
                };
            };
        };
        responses: {
            /** @description The payout record. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 200 */
                        code: string;
                        /** @example SUCCESS */
                        message: string;
                        data: components["schemas"]["PayoutRecord"];
                    };
                };
            };
            /** @description The request was refused and changed nothing: INVALID_JSON, VALIDATION_FAILED (with data.errors), UNSUPPORTED_CURRENCY, UNSUPPORTED_METHOD, INVALID_BANK_CODE. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Authentication failed: MISSING_CREDENTIALS, INVALID_TIMESTAMP, TIMESTAMP_OUT_OF_WINDOW, UNKNOWN_MERCHANT, INVALID_SIGNATURE, SIGNATURE_REUSED. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description MERCHANT_DISABLED; METHOD_NOT_ENABLED for what this merchant may not use; IP_NOT_ALLOWED from an address outside the merchant's IP allow-list; KEY_SCOPE when the signing key's scope does not cover this call (see x-key-scope). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: no such payout for this merchant (another merchant's looks the same). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: the body is over 64 KiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: send the body as application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: over the merchant's request rate; retry after the Retry-After seconds. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR: nothing partial was stored; quote the Request-Id header. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAVAILABLE: shutting down or the database is unreachable; safe to retry. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    payoutBatch: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description Your own reference: 1 to 64 of A-Z a-z 0-9 _ -. Unique among your payout batches.
                     * @example payroll-2026-11
                     */
                    merchantRef: string & unknown;
                    /** @description true: if any item would be refused, the whole batch is refused (400 BATCH_REFUSED) and nothing is stored. */
                    atomic?: boolean;
                    /** @description Where payout.batch_completed goes; defaults to your payout webhook URL. Items keep their own webhookUrl. */
                    webhookUrl?: string;
                    items: {
                        merchantRef?: unknown;
                        currency?: unknown;
                        method?: unknown;
                        amount?: unknown;
                        bankCode?: unknown;
                        name?: unknown;
                        account?: unknown;
                        phone?: unknown;
                        email?: unknown;
                        webhookUrl?: unknown;
                        nameCheck?: unknown;
                    }[];
                };
            };
        };
        responses: {
            /** @description The batch (new, or the original one for a repeated body). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 200 */
                        code: string;
                        /** @example SUCCESS */
                        message: string;
                        data: components["schemas"]["PayoutBatchResult"];
                    };
                };
            };
            /** @description BATCH_REFUSED: atomic batch with a refused item (data.errors lists items.<index>.<field> with the reason); VALIDATION_FAILED: the batch itself is malformed (over 1,000 items, an unknown field in an item ...). Nothing was stored. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Authentication failed: MISSING_CREDENTIALS, INVALID_TIMESTAMP, TIMESTAMP_OUT_OF_WINDOW, UNKNOWN_MERCHANT, INVALID_SIGNATURE, SIGNATURE_REUSED. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description MERCHANT_DISABLED; METHOD_NOT_ENABLED for what this merchant may not use; IP_NOT_ALLOWED from an address outside the merchant's IP allow-list; KEY_SCOPE when the signing key's scope does not cover this call (see x-key-scope). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description DUPLICATE_MERCHANT_REF: the batch merchantRef was used with a different body. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: the body is over 1 MiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: send the body as application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: over the merchant's request rate; retry after the Retry-After seconds. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR: nothing partial was stored; quote the Request-Id header. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAVAILABLE: shutting down or the database is unreachable; safe to retry. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    payoutBatchStatus: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description Exactly one of merchantRef and batchId. */
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description Your own reference: 1 to 64 of A-Z a-z 0-9 _ -. Unique among your payout batches.
                     * @example payroll-2026-11
                     */
                    merchantRef?: string & unknown;
                    /** @description The batchId payout/batch answered. */
                    batchId?: string;
                };
            };
        };
        responses: {
            /** @description The batch record. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 200 */
                        code: string;
                        /** @example SUCCESS */
                        message: string;
                        data: components["schemas"]["PayoutBatchStatus"];
                    };
                };
            };
            /** @description The request was refused and changed nothing: INVALID_JSON, VALIDATION_FAILED (with data.errors), UNSUPPORTED_CURRENCY, UNSUPPORTED_METHOD, INVALID_BANK_CODE. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Authentication failed: MISSING_CREDENTIALS, INVALID_TIMESTAMP, TIMESTAMP_OUT_OF_WINDOW, UNKNOWN_MERCHANT, INVALID_SIGNATURE, SIGNATURE_REUSED. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description MERCHANT_DISABLED; METHOD_NOT_ENABLED for what this merchant may not use; IP_NOT_ALLOWED from an address outside the merchant's IP allow-list; KEY_SCOPE when the signing key's scope does not cover this call (see x-key-scope). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: no such payout batch for this merchant (another merchant's looks the same). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: the body is over 64 KiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: send the body as application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: over the merchant's request rate; retry after the Retry-After seconds. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR: nothing partial was stored; quote the Request-Id header. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAVAILABLE: shutting down or the database is unreachable; safe to retry. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    sandboxPaymentComplete: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    transactionRef: string;
                    /** @description Success: the payer pays. Failed: the bank declines. */
                    outcome: "Success" | "Failed";
                };
            };
        };
        responses: {
            /** @description The payment record after the outcome. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 200 */
                        code: string;
                        /** @example SUCCESS */
                        message: string;
                        data: components["schemas"]["PaymentRecord"];
                    };
                };
            };
            /** @description The request was refused and changed nothing: INVALID_JSON, VALIDATION_FAILED (with data.errors), UNSUPPORTED_CURRENCY, UNSUPPORTED_METHOD, INVALID_BANK_CODE. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Authentication failed: MISSING_CREDENTIALS, INVALID_TIMESTAMP, TIMESTAMP_OUT_OF_WINDOW, UNKNOWN_MERCHANT, INVALID_SIGNATURE, SIGNATURE_REUSED. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description MERCHANT_DISABLED; METHOD_NOT_ENABLED for what this merchant may not use; IP_NOT_ALLOWED from an address outside the merchant's IP allow-list; KEY_SCOPE when the signing key's scope does not cover this call (see x-key-scope). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: no such payment for this merchant (another merchant's looks the same). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: the body is over 64 KiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: send the body as application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: over the merchant's request rate; retry after the Retry-After seconds. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR: nothing partial was stored; quote the Request-Id header. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAVAILABLE: shutting down or the database is unreachable; safe to retry. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    webhookEvents: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @default 50 */
                    limit?: number;
                    status?: components["schemas"]["WebhookDeliveryStatus"];
                    /**
                     * @description Only events older than this one: the page before's nextBefore. An event deleted since (retention) still places the page, by the time its id carries.
                     * @example evt_019a8f3c5d2e7b4c8a1f6e0d9c8b7a65
                     */
                    before?: string & unknown;
                };
            };
        };
        responses: {
            /** @description One page of events, newest first. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 200 */
                        code: string;
                        /** @example SUCCESS */
                        message: string;
                        data: components["schemas"]["WebhookEventPage"];
                    };
                };
            };
            /** @description The request was refused and changed nothing: INVALID_JSON, VALIDATION_FAILED (with data.errors), UNSUPPORTED_CURRENCY, UNSUPPORTED_METHOD, INVALID_BANK_CODE. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Authentication failed: MISSING_CREDENTIALS, INVALID_TIMESTAMP, TIMESTAMP_OUT_OF_WINDOW, UNKNOWN_MERCHANT, INVALID_SIGNATURE, SIGNATURE_REUSED. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description MERCHANT_DISABLED; METHOD_NOT_ENABLED for what this merchant may not use; IP_NOT_ALLOWED from an address outside the merchant's IP allow-list; KEY_SCOPE when the signing key's scope does not cover this call (see x-key-scope). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: the body is over 64 KiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: send the body as application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: over the merchant's request rate; retry after the Retry-After seconds. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR: nothing partial was stored; quote the Request-Id header. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAVAILABLE: shutting down or the database is unreachable; safe to retry. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    webhookEvent: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @example evt_019a8f3c5d2e7b4c8a1f6e0d9c8b7a65 */
                    eventId: string & unknown;
                };
            };
        };
        responses: {
            /** @description The event, its body as sent and its attempts. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 200 */
                        code: string;
                        /** @example SUCCESS */
                        message: string;
                        data: components["schemas"]["WebhookEventDetail"];
                    };
                };
            };
            /** @description The request was refused and changed nothing: INVALID_JSON, VALIDATION_FAILED (with data.errors), UNSUPPORTED_CURRENCY, UNSUPPORTED_METHOD, INVALID_BANK_CODE. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Authentication failed: MISSING_CREDENTIALS, INVALID_TIMESTAMP, TIMESTAMP_OUT_OF_WINDOW, UNKNOWN_MERCHANT, INVALID_SIGNATURE, SIGNATURE_REUSED. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description MERCHANT_DISABLED; METHOD_NOT_ENABLED for what this merchant may not use; IP_NOT_ALLOWED from an address outside the merchant's IP allow-list; KEY_SCOPE when the signing key's scope does not cover this call (see x-key-scope). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: no such event for this merchant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: the body is over 64 KiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: send the body as application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: over the merchant's request rate; retry after the Retry-After seconds. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR: nothing partial was stored; quote the Request-Id header. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAVAILABLE: shutting down or the database is unreachable; safe to retry. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    webhookResend: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @example evt_019a8f3c5d2e7b4c8a1f6e0d9c8b7a65 */
                    eventId: string & unknown;
                };
            };
        };
        responses: {
            /** @description The event, pending again. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 200 */
                        code: string;
                        /** @example SUCCESS */
                        message: string;
                        data: components["schemas"]["WebhookEvent"];
                    };
                };
            };
            /** @description The request was refused and changed nothing: INVALID_JSON, VALIDATION_FAILED (with data.errors), UNSUPPORTED_CURRENCY, UNSUPPORTED_METHOD, INVALID_BANK_CODE. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Authentication failed: MISSING_CREDENTIALS, INVALID_TIMESTAMP, TIMESTAMP_OUT_OF_WINDOW, UNKNOWN_MERCHANT, INVALID_SIGNATURE, SIGNATURE_REUSED. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description MERCHANT_DISABLED; METHOD_NOT_ENABLED for what this merchant may not use; IP_NOT_ALLOWED from an address outside the merchant's IP allow-list; KEY_SCOPE when the signing key's scope does not cover this call (see x-key-scope). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: no such event for this merchant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description CONFLICT: no webhook URL is configured for this kind of event; set one, then resend. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: the body is over 64 KiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: send the body as application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: over the merchant's request rate; retry after the Retry-After seconds. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR: nothing partial was stored; quote the Request-Id header. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAVAILABLE: shutting down or the database is unreachable; safe to retry. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    paymentList: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description Every filter given must match; none given lists every payment. */
        requestBody: {
            content: {
                "application/json": {
                    status?: components["schemas"]["PaymentStatus"];
                    currency?: components["schemas"]["Currency"];
                    method?: components["schemas"]["PayInMethod"];
                    /**
                     * @description Created at or after (inclusive). ISO-8601: a date (midnight UTC) or a date-time with Z or an offset.
                     * @example 2026-11-01
                     */
                    from?: string & unknown;
                    /**
                     * @description Created before (exclusive); must be after from. ISO-8601: a date (midnight UTC) or a date-time with Z or an offset.
                     * @example 2026-11-01
                     */
                    to?: string & unknown;
                    /** @description Exactly this merchantRef. */
                    merchantRef?: string & unknown;
                    /**
                     * @description The reference the service assigned (UUID v7).
                     * @example 0193a8f2-7c1e-7d3a-9b5e-2f4c6d8e0a1b
                     */
                    transactionRef?: string;
                    /**
                     * @description Items per page, 1 to 100.
                     * @default 50
                     */
                    limit?: number;
                    /** @description nextCursor of the previous page, with the same filters. */
                    cursor?: string;
                };
            };
        };
        responses: {
            /** @description One page of payment records, newest first. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 200 */
                        code: string;
                        /** @example SUCCESS */
                        message: string;
                        data: components["schemas"]["PaymentPage"];
                    };
                };
            };
            /** @description The request was refused and changed nothing: INVALID_JSON, VALIDATION_FAILED (with data.errors), UNSUPPORTED_CURRENCY, UNSUPPORTED_METHOD, INVALID_BANK_CODE. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Authentication failed: MISSING_CREDENTIALS, INVALID_TIMESTAMP, TIMESTAMP_OUT_OF_WINDOW, UNKNOWN_MERCHANT, INVALID_SIGNATURE, SIGNATURE_REUSED. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description MERCHANT_DISABLED; METHOD_NOT_ENABLED for what this merchant may not use; IP_NOT_ALLOWED from an address outside the merchant's IP allow-list; KEY_SCOPE when the signing key's scope does not cover this call (see x-key-scope). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: the body is over 64 KiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: send the body as application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: over the merchant's request rate; retry after the Retry-After seconds. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR: nothing partial was stored; quote the Request-Id header. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAVAILABLE: shutting down or the database is unreachable; safe to retry. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    payoutList: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description Every filter given must match; none given lists every payout. */
        requestBody: {
            content: {
                "application/json": {
                    status?: components["schemas"]["PayoutStatus"];
                    currency?: components["schemas"]["Currency"];
                    method?: components["schemas"]["PayoutMethod"];
                    /**
                     * @description Created at or after (inclusive). ISO-8601: a date (midnight UTC) or a date-time with Z or an offset.
                     * @example 2026-11-01
                     */
                    from?: string & unknown;
                    /**
                     * @description Created before (exclusive); must be after from. ISO-8601: a date (midnight UTC) or a date-time with Z or an offset.
                     * @example 2026-11-01
                     */
                    to?: string & unknown;
                    /** @description Exactly this merchantRef. */
                    merchantRef?: string & unknown;
                    /**
                     * @description The reference the service assigned (UUID v7).
                     * @example 0193a8f2-7c1e-7d3a-9b5e-2f4c6d8e0a1b
                     */
                    transactionRef?: string;
                    /**
                     * @description Items per page, 1 to 100.
                     * @default 50
                     */
                    limit?: number;
                    /** @description nextCursor of the previous page, with the same filters. */
                    cursor?: string;
                };
            };
        };
        responses: {
            /** @description One page of payout records, newest first. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 200 */
                        code: string;
                        /** @example SUCCESS */
                        message: string;
                        data: components["schemas"]["PayoutPage"];
                    };
                };
            };
            /** @description The request was refused and changed nothing: INVALID_JSON, VALIDATION_FAILED (with data.errors), UNSUPPORTED_CURRENCY, UNSUPPORTED_METHOD, INVALID_BANK_CODE. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Authentication failed: MISSING_CREDENTIALS, INVALID_TIMESTAMP, TIMESTAMP_OUT_OF_WINDOW, UNKNOWN_MERCHANT, INVALID_SIGNATURE, SIGNATURE_REUSED. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description MERCHANT_DISABLED; METHOD_NOT_ENABLED for what this merchant may not use; IP_NOT_ALLOWED from an address outside the merchant's IP allow-list; KEY_SCOPE when the signing key's scope does not cover this call (see x-key-scope). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: the body is over 64 KiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: send the body as application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: over the merchant's request rate; retry after the Retry-After seconds. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR: nothing partial was stored; quote the Request-Id header. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAVAILABLE: shutting down or the database is unreachable; safe to retry. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    accountStatement: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description Movements of your five balances in one currency, newest first. */
        requestBody: {
            content: {
                "application/json": {
                    currency: components["schemas"]["Currency"];
                    /**
                     * @description Created at or after (inclusive). ISO-8601: a date (midnight UTC) or a date-time with Z or an offset.
                     * @example 2026-11-01
                     */
                    from?: string & unknown;
                    /**
                     * @description Created before (exclusive); must be after from. ISO-8601: a date (midnight UTC) or a date-time with Z or an offset.
                     * @example 2026-11-01
                     */
                    to?: string & unknown;
                    /**
                     * @description Items per page, 1 to 100.
                     * @default 50
                     */
                    limit?: number;
                    /** @description nextCursor of the previous page, with the same filters. */
                    cursor?: string;
                };
            };
        };
        responses: {
            /** @description One page of movements, newest first. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 200 */
                        code: string;
                        /** @example SUCCESS */
                        message: string;
                        data: components["schemas"]["StatementPage"];
                    };
                };
            };
            /** @description The request was refused and changed nothing: INVALID_JSON, VALIDATION_FAILED (with data.errors), UNSUPPORTED_CURRENCY, UNSUPPORTED_METHOD, INVALID_BANK_CODE. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Authentication failed: MISSING_CREDENTIALS, INVALID_TIMESTAMP, TIMESTAMP_OUT_OF_WINDOW, UNKNOWN_MERCHANT, INVALID_SIGNATURE, SIGNATURE_REUSED. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description MERCHANT_DISABLED; METHOD_NOT_ENABLED for what this merchant may not use; IP_NOT_ALLOWED from an address outside the merchant's IP allow-list; KEY_SCOPE when the signing key's scope does not cover this call (see x-key-scope). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: the body is over 64 KiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: send the body as application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: over the merchant's request rate; retry after the Retry-After seconds. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR: nothing partial was stored; quote the Request-Id header. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAVAILABLE: shutting down or the database is unreachable; safe to retry. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    accountSettlements: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description Default: the last 31 UTC days up to today; at most 366 days. */
        requestBody: {
            content: {
                "application/json": {
                    currency: components["schemas"]["Currency"];
                    /**
                     * @description Created at or after (inclusive). ISO-8601: a date (midnight UTC) or a date-time with Z or an offset.
                     * @example 2026-11-01
                     */
                    from?: string & unknown;
                    /**
                     * @description Created before (exclusive); must be after from. ISO-8601: a date (midnight UTC) or a date-time with Z or an offset.
                     * @example 2026-11-01
                     */
                    to?: string & unknown;
                };
            };
        };
        responses: {
            /** @description The totals per day, newest first. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 200 */
                        code: string;
                        /** @example SUCCESS */
                        message: string;
                        data: components["schemas"]["Settlements"];
                    };
                };
            };
            /** @description The request was refused and changed nothing: INVALID_JSON, VALIDATION_FAILED (with data.errors), UNSUPPORTED_CURRENCY, UNSUPPORTED_METHOD, INVALID_BANK_CODE. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Authentication failed: MISSING_CREDENTIALS, INVALID_TIMESTAMP, TIMESTAMP_OUT_OF_WINDOW, UNKNOWN_MERCHANT, INVALID_SIGNATURE, SIGNATURE_REUSED. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description MERCHANT_DISABLED; METHOD_NOT_ENABLED for what this merchant may not use; IP_NOT_ALLOWED from an address outside the merchant's IP allow-list; KEY_SCOPE when the signing key's scope does not cover this call (see x-key-scope). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: the body is over 64 KiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: send the body as application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: over the merchant's request rate; retry after the Retry-After seconds. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR: nothing partial was stored; quote the Request-Id header. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAVAILABLE: shutting down or the database is unreachable; safe to retry. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    reportCreate: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    type: components["schemas"]["ReportType"];
                    /**
                     * @description Created at or after (inclusive). ISO-8601: a date (midnight UTC) or a date-time with Z or an offset.
                     * @example 2026-11-01
                     */
                    from: string & unknown;
                    /**
                     * @description Created before (exclusive); must be after from. ISO-8601: a date (midnight UTC) or a date-time with Z or an offset.
                     * @example 2026-11-01
                     */
                    to: string & unknown;
                    currency?: components["schemas"]["Currency"];
                };
            };
        };
        responses: {
            /** @description The report, Pending (or the earlier one for the same request). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 200 */
                        code: string;
                        /** @example SUCCESS */
                        message: string;
                        data: components["schemas"]["Report"];
                    };
                };
            };
            /** @description The request was refused and changed nothing: INVALID_JSON, VALIDATION_FAILED (with data.errors), UNSUPPORTED_CURRENCY, UNSUPPORTED_METHOD, INVALID_BANK_CODE. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Authentication failed: MISSING_CREDENTIALS, INVALID_TIMESTAMP, TIMESTAMP_OUT_OF_WINDOW, UNKNOWN_MERCHANT, INVALID_SIGNATURE, SIGNATURE_REUSED. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description MERCHANT_DISABLED; METHOD_NOT_ENABLED for what this merchant may not use; IP_NOT_ALLOWED from an address outside the merchant's IP allow-list; KEY_SCOPE when the signing key's scope does not cover this call (see x-key-scope). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: the body is over 64 KiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: send the body as application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: over the merchant's request rate; retry after the Retry-After seconds. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR: nothing partial was stored; quote the Request-Id header. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAVAILABLE: shutting down or the database is unreachable; safe to retry. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    reportStatus: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The reportId report/create answered. */
                    reportId: string;
                };
            };
        };
        responses: {
            /** @description The report; downloadUrl when Ready (a fresh 15-minute link on every call). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 200 */
                        code: string;
                        /** @example SUCCESS */
                        message: string;
                        data: components["schemas"]["Report"];
                    };
                };
            };
            /** @description The request was refused and changed nothing: INVALID_JSON, VALIDATION_FAILED (with data.errors), UNSUPPORTED_CURRENCY, UNSUPPORTED_METHOD, INVALID_BANK_CODE. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Authentication failed: MISSING_CREDENTIALS, INVALID_TIMESTAMP, TIMESTAMP_OUT_OF_WINDOW, UNKNOWN_MERCHANT, INVALID_SIGNATURE, SIGNATURE_REUSED. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description MERCHANT_DISABLED; METHOD_NOT_ENABLED for what this merchant may not use; IP_NOT_ALLOWED from an address outside the merchant's IP allow-list; KEY_SCOPE when the signing key's scope does not cover this call (see x-key-scope). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: no such report for this merchant (another merchant's looks the same). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: the body is over 64 KiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: send the body as application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: over the merchant's request rate; retry after the Retry-After seconds. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR: nothing partial was stored; quote the Request-Id header. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAVAILABLE: shutting down or the database is unreachable; safe to retry. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    adminListMerchants: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Every merchant. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 200 */
                        code: string;
                        /** @example SUCCESS */
                        message: string;
                        data: components["schemas"]["Merchant"][];
                    };
                };
            };
            /** @description The request was refused and changed nothing: INVALID_JSON, VALIDATION_FAILED (with data.errors), UNSUPPORTED_CURRENCY, UNSUPPORTED_METHOD. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: a valid operator bearer token is required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR: nothing partial was stored. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAVAILABLE: shutting down or the database is unreachable; safe to retry. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    adminCreateMerchant: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    mode?: "sandbox" | "live";
                    keyType?: components["schemas"]["KeyType"];
                    keyScope?: components["schemas"]["KeyScope"];
                    publicKeyPem?: string;
                    rateLimitPerSecond?: number;
                    paymentWebhookUrl?: string | null;
                    payoutWebhookUrl?: string | null;
                };
            };
        };
        responses: {
            /** @description The merchant, its first key and its webhook secret (secrets shown once). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 200 */
                        code: string;
                        /** @example SUCCESS */
                        message: string;
                        data: {
                            merchant: components["schemas"]["Merchant"];
                            key: components["schemas"]["IssuedKey"];
                            /** @description The whsec_ secret, shown once. */
                            webhookSecret: string;
                        };
                    };
                };
            };
            /** @description The request was refused and changed nothing: INVALID_JSON, VALIDATION_FAILED (with data.errors), UNSUPPORTED_CURRENCY, UNSUPPORTED_METHOD. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: a valid operator bearer token is required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR: nothing partial was stored. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAVAILABLE: shutting down or the database is unreachable; safe to retry. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    adminGetMerchant: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The merchant. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 200 */
                        code: string;
                        /** @example SUCCESS */
                        message: string;
                        data: components["schemas"]["Merchant"];
                    };
                };
            };
            /** @description The request was refused and changed nothing: INVALID_JSON, VALIDATION_FAILED (with data.errors), UNSUPPORTED_CURRENCY, UNSUPPORTED_METHOD. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: a valid operator bearer token is required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: no such merchant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR: nothing partial was stored. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAVAILABLE: shutting down or the database is unreachable; safe to retry. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    adminDisableMerchant: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The merchant afterwards. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 200 */
                        code: string;
                        /** @example SUCCESS */
                        message: string;
                        data: components["schemas"]["Merchant"];
                    };
                };
            };
            /** @description The request was refused and changed nothing: INVALID_JSON, VALIDATION_FAILED (with data.errors), UNSUPPORTED_CURRENCY, UNSUPPORTED_METHOD. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: a valid operator bearer token is required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: no such merchant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR: nothing partial was stored. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAVAILABLE: shutting down or the database is unreachable; safe to retry. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    adminEnableMerchant: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The merchant afterwards. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 200 */
                        code: string;
                        /** @example SUCCESS */
                        message: string;
                        data: components["schemas"]["Merchant"];
                    };
                };
            };
            /** @description The request was refused and changed nothing: INVALID_JSON, VALIDATION_FAILED (with data.errors), UNSUPPORTED_CURRENCY, UNSUPPORTED_METHOD. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: a valid operator bearer token is required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: no such merchant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR: nothing partial was stored. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAVAILABLE: shutting down or the database is unreachable; safe to retry. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    adminListKeys: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The keys, oldest first (none for an unknown merchant). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 200 */
                        code: string;
                        /** @example SUCCESS */
                        message: string;
                        data: components["schemas"]["ApiKey"][];
                    };
                };
            };
            /** @description The request was refused and changed nothing: INVALID_JSON, VALIDATION_FAILED (with data.errors), UNSUPPORTED_CURRENCY, UNSUPPORTED_METHOD. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: a valid operator bearer token is required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR: nothing partial was stored. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAVAILABLE: shutting down or the database is unreachable; safe to retry. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    adminAddKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    type: components["schemas"]["KeyType"];
                    publicKeyPem?: string;
                    label?: string;
                    scope?: components["schemas"]["KeyScope"];
                };
            };
        };
        responses: {
            /** @description The new key; a generated private key or HMAC secret is shown once. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 200 */
                        code: string;
                        /** @example SUCCESS */
                        message: string;
                        data: components["schemas"]["IssuedKey"];
                    };
                };
            };
            /** @description The request was refused and changed nothing: INVALID_JSON, VALIDATION_FAILED (with data.errors), UNSUPPORTED_CURRENCY, UNSUPPORTED_METHOD. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: a valid operator bearer token is required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: no such merchant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description CONFLICT: the merchant already has two active keys; revoke one first. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR: nothing partial was stored. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAVAILABLE: shutting down or the database is unreachable; safe to retry. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    adminRevokeKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                keyId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The key is revoked. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 200 */
                        code: string;
                        /** @example SUCCESS */
                        message: string;
                        data: {
                            revoked: string;
                        };
                    };
                };
            };
            /** @description The request was refused and changed nothing: INVALID_JSON, VALIDATION_FAILED (with data.errors), UNSUPPORTED_CURRENCY, UNSUPPORTED_METHOD. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: a valid operator bearer token is required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: no such key of this merchant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR: nothing partial was stored. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAVAILABLE: shutting down or the database is unreachable; safe to retry. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    adminSetWebhookUrls: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    paymentWebhookUrl?: string | null;
                    payoutWebhookUrl?: string | null;
                };
            };
        };
        responses: {
            /** @description The merchant afterwards. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 200 */
                        code: string;
                        /** @example SUCCESS */
                        message: string;
                        data: components["schemas"]["Merchant"];
                    };
                };
            };
            /** @description The request was refused and changed nothing: INVALID_JSON, VALIDATION_FAILED (with data.errors), UNSUPPORTED_CURRENCY, UNSUPPORTED_METHOD. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: a valid operator bearer token is required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: no such merchant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR: nothing partial was stored. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAVAILABLE: shutting down or the database is unreachable; safe to retry. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    adminRotateWebhookSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The new whsec_ secret, shown once. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 200 */
                        code: string;
                        /** @example SUCCESS */
                        message: string;
                        data: {
                            webhookSecret: string;
                            /** @description Until then webhook-signature carries a second v1, signature by the replaced secret (WEBHOOK_SECRET_OVERLAP_SECONDS); null: no overlap. */
                            previousSecretExpiresAt: string | null;
                        };
                    };
                };
            };
            /** @description The request was refused and changed nothing: INVALID_JSON, VALIDATION_FAILED (with data.errors), UNSUPPORTED_CURRENCY, UNSUPPORTED_METHOD. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: a valid operator bearer token is required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: no such merchant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR: nothing partial was stored. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAVAILABLE: shutting down or the database is unreachable; safe to retry. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    adminSetRateLimit: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    perSecond: number;
                };
            };
        };
        responses: {
            /** @description The merchant afterwards. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 200 */
                        code: string;
                        /** @example SUCCESS */
                        message: string;
                        data: components["schemas"]["Merchant"];
                    };
                };
            };
            /** @description The request was refused and changed nothing: INVALID_JSON, VALIDATION_FAILED (with data.errors), UNSUPPORTED_CURRENCY, UNSUPPORTED_METHOD. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: a valid operator bearer token is required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: no such merchant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR: nothing partial was stored. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAVAILABLE: shutting down or the database is unreachable; safe to retry. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    adminGetIpAllowList: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The allow-list afterwards (cidrs empty: none). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 200 */
                        code: string;
                        /** @example SUCCESS */
                        message: string;
                        data: components["schemas"]["IpAllowList"];
                    };
                };
            };
            /** @description The request was refused and changed nothing: INVALID_JSON, VALIDATION_FAILED (with data.errors), UNSUPPORTED_CURRENCY, UNSUPPORTED_METHOD. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: a valid operator bearer token is required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: no such merchant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR: nothing partial was stored. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAVAILABLE: shutting down or the database is unreachable; safe to retry. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    adminSetIpAllowList: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description IPv4 or IPv6 addresses or CIDR ranges (203.0.113.7, 203.0.113.0/24, 2001:db8::/32); an empty list removes the allow-list. */
                    cidrs: string[];
                    /**
                     * @description money (default): payouts and refunds only; all: every merchant call.
                     * @enum {string}
                     */
                    scope?: "money" | "all";
                };
            };
        };
        responses: {
            /** @description The allow-list afterwards (cidrs empty: none). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 200 */
                        code: string;
                        /** @example SUCCESS */
                        message: string;
                        data: components["schemas"]["IpAllowList"];
                    };
                };
            };
            /** @description The request was refused and changed nothing: INVALID_JSON, VALIDATION_FAILED (with data.errors), UNSUPPORTED_CURRENCY, UNSUPPORTED_METHOD. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: a valid operator bearer token is required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: no such merchant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR: nothing partial was stored. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAVAILABLE: shutting down or the database is unreachable; safe to retry. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    adminSetRate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                currency: "INR" | "EGP" | "NGN" | "IDR";
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description Local currency per USDT as a decimal string, up to 6 decimals
                     * @example 88.25
                     */
                    reference: string;
                    depositSpreadBps: number;
                    withdrawSpreadBps: number;
                };
            };
        };
        responses: {
            /** @description The rate now in force. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 200 */
                        code: string;
                        /** @example SUCCESS */
                        message: string;
                        data: components["schemas"]["RateSetting"];
                    };
                };
            };
            /** @description The request was refused and changed nothing: INVALID_JSON, VALIDATION_FAILED (with data.errors), UNSUPPORTED_CURRENCY, UNSUPPORTED_METHOD. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: a valid operator bearer token is required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR: nothing partial was stored. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAVAILABLE: shutting down or the database is unreachable; safe to retry. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    adminListRates: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The rate of every currency that has one. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 200 */
                        code: string;
                        /** @example SUCCESS */
                        message: string;
                        data: components["schemas"]["RateSetting"][];
                    };
                };
            };
            /** @description The request was refused and changed nothing: INVALID_JSON, VALIDATION_FAILED (with data.errors), UNSUPPORTED_CURRENCY, UNSUPPORTED_METHOD. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: a valid operator bearer token is required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR: nothing partial was stored. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAVAILABLE: shutting down or the database is unreachable; safe to retry. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    adminListWebhookEvents: {
        parameters: {
            query?: {
                merchantId?: string;
                status?: components["schemas"]["WebhookDeliveryStatus"];
                /** @description 1 to 200 */
                limit?: string & unknown;
                /**
                 * @description Only events older than this one: the page before's nextBefore. An event deleted since (retention) still places the page, by the time its id carries.
                 * @example evt_019a8f3c5d2e7b4c8a1f6e0d9c8b7a65
                 */
                before?: string & unknown;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of events, newest first. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 200 */
                        code: string;
                        /** @example SUCCESS */
                        message: string;
                        data: components["schemas"]["WebhookEventPage"];
                    };
                };
            };
            /** @description The request was refused and changed nothing: INVALID_JSON, VALIDATION_FAILED (with data.errors), UNSUPPORTED_CURRENCY, UNSUPPORTED_METHOD. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: a valid operator bearer token is required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR: nothing partial was stored. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAVAILABLE: shutting down or the database is unreachable; safe to retry. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    adminGetWebhookEvent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example evt_019a8f3c5d2e7b4c8a1f6e0d9c8b7a65 */
                id: string & unknown;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The event, its body as sent and its attempts. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 200 */
                        code: string;
                        /** @example SUCCESS */
                        message: string;
                        data: components["schemas"]["WebhookEventDetail"];
                    };
                };
            };
            /** @description The request was refused and changed nothing: INVALID_JSON, VALIDATION_FAILED (with data.errors), UNSUPPORTED_CURRENCY, UNSUPPORTED_METHOD. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: a valid operator bearer token is required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: no such event. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR: nothing partial was stored. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAVAILABLE: shutting down or the database is unreachable; safe to retry. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    adminResendWebhookEvent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example evt_019a8f3c5d2e7b4c8a1f6e0d9c8b7a65 */
                id: string & unknown;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The event, pending again. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 200 */
                        code: string;
                        /** @example SUCCESS */
                        message: string;
                        data: components["schemas"]["WebhookEvent"];
                    };
                };
            };
            /** @description The request was refused and changed nothing: INVALID_JSON, VALIDATION_FAILED (with data.errors), UNSUPPORTED_CURRENCY, UNSUPPORTED_METHOD. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: a valid operator bearer token is required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: no such event. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description CONFLICT: no webhook URL is configured for this kind of event; set the merchant's, then resend. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR: nothing partial was stored. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAVAILABLE: shutting down or the database is unreachable; safe to retry. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    adminGetBalances: {
        parameters: {
            query: {
                currency: components["schemas"]["Currency"];
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The five balances. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 200 */
                        code: string;
                        /** @example SUCCESS */
                        message: string;
                        data: components["schemas"]["Balance"];
                    };
                };
            };
            /** @description The request was refused and changed nothing: INVALID_JSON, VALIDATION_FAILED (with data.errors), UNSUPPORTED_CURRENCY, UNSUPPORTED_METHOD. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: a valid operator bearer token is required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: no such merchant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR: nothing partial was stored. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAVAILABLE: shutting down or the database is unreachable; safe to retry. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    adminGetJournal: {
        parameters: {
            query?: {
                /** @description 1 to 500 */
                limit?: string & unknown;
                before?: string;
                currency?: components["schemas"]["Currency"];
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of journal entries, newest first. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 200 */
                        code: string;
                        /** @example SUCCESS */
                        message: string;
                        data: {
                            entries: {
                                id: string;
                                kind: string;
                                ref: string;
                                currency: string;
                                reason: string | null;
                                actor: string | null;
                                createdAt: string;
                                postings: {
                                    account: string;
                                    kind: string;
                                    channel: string | null;
                                    merchantId: string | null;
                                    amount: number;
                                }[];
                            }[];
                            nextBefore: string | null;
                        };
                    };
                };
            };
            /** @description The request was refused and changed nothing: INVALID_JSON, VALIDATION_FAILED (with data.errors), UNSUPPORTED_CURRENCY, UNSUPPORTED_METHOD. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: a valid operator bearer token is required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: no such merchant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR: nothing partial was stored. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAVAILABLE: shutting down or the database is unreachable; safe to retry. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    adminCredit: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    currency: components["schemas"]["Currency"];
                    /**
                     * @description Major units, at most 2 decimals
                     * @example 1500.5
                     */
                    amount: number;
                    /** @description Why; kept in the journal and the audit log */
                    reason: string;
                    action: "grant" | "lower";
                    /** @description Repeating a request with the same key posts nothing new */
                    idempotencyKey?: string;
                };
            };
        };
        responses: {
            /** @description The journal entry posted (or replayed) and the balances afterwards. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 200 */
                        code: string;
                        /** @example SUCCESS */
                        message: string;
                        data: {
                            entryId: string;
                            replayed: boolean;
                            balances: components["schemas"]["Balance"];
                        };
                    };
                };
            };
            /** @description The request was refused and changed nothing: INVALID_JSON, VALIDATION_FAILED (with data.errors), UNSUPPORTED_CURRENCY, UNSUPPORTED_METHOD. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: a valid operator bearer token is required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: no such merchant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INSUFFICIENT_BALANCE: the move would make a balance negative; nothing was posted. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR: nothing partial was stored. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAVAILABLE: shutting down or the database is unreachable; safe to retry. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    adminSecurityDeposit: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    currency: components["schemas"]["Currency"];
                    /**
                     * @description Major units, at most 2 decimals
                     * @example 1500.5
                     */
                    amount: number;
                    /** @description Why; kept in the journal and the audit log */
                    reason: string;
                    action: "deposit" | "release";
                    /** @description Repeating a request with the same key posts nothing new */
                    idempotencyKey?: string;
                };
            };
        };
        responses: {
            /** @description The journal entry posted (or replayed) and the balances afterwards. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 200 */
                        code: string;
                        /** @example SUCCESS */
                        message: string;
                        data: {
                            entryId: string;
                            replayed: boolean;
                            balances: components["schemas"]["Balance"];
                        };
                    };
                };
            };
            /** @description The request was refused and changed nothing: INVALID_JSON, VALIDATION_FAILED (with data.errors), UNSUPPORTED_CURRENCY, UNSUPPORTED_METHOD. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: a valid operator bearer token is required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: no such merchant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INSUFFICIENT_BALANCE: the move would make a balance negative; nothing was posted. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR: nothing partial was stored. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAVAILABLE: shutting down or the database is unreachable; safe to retry. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    adminAdjust: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    currency: components["schemas"]["Currency"];
                    account: "available" | "pending" | "security";
                    /**
                     * @description Signed major units: positive credits the account, negative debits it
                     * @example -12.34
                     */
                    amount: number;
                    /** @description Why; kept in the journal and the audit log */
                    reason: string;
                    /** @description Repeating a request with the same key posts nothing new */
                    idempotencyKey?: string;
                };
            };
        };
        responses: {
            /** @description The journal entry posted (or replayed) and the balances afterwards. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 200 */
                        code: string;
                        /** @example SUCCESS */
                        message: string;
                        data: {
                            entryId: string;
                            replayed: boolean;
                            balances: components["schemas"]["Balance"];
                        };
                    };
                };
            };
            /** @description The request was refused and changed nothing: INVALID_JSON, VALIDATION_FAILED (with data.errors), UNSUPPORTED_CURRENCY, UNSUPPORTED_METHOD. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: a valid operator bearer token is required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: no such merchant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INSUFFICIENT_BALANCE: the move would make a balance negative; nothing was posted. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR: nothing partial was stored. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAVAILABLE: shutting down or the database is unreachable; safe to retry. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    adminSetFee: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    currency: components["schemas"]["Currency"];
                    method: string;
                    direction: "payin" | "payout";
                    /** @description Basis points of the amount (100 = 1%) */
                    bps: number;
                    /** @description Fixed part in major units */
                    fixed: number;
                };
            };
        };
        responses: {
            /** @description The fee now in force. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 200 */
                        code: string;
                        /** @example SUCCESS */
                        message: string;
                        data: {
                            currency: string;
                            method: string;
                            direction: string;
                            bps: number;
                            fixed: number;
                        };
                    };
                };
            };
            /** @description The request was refused and changed nothing: INVALID_JSON, VALIDATION_FAILED (with data.errors), UNSUPPORTED_CURRENCY, UNSUPPORTED_METHOD. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: a valid operator bearer token is required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: no such merchant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR: nothing partial was stored. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAVAILABLE: shutting down or the database is unreachable; safe to retry. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    adminSetLimits: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    currency: components["schemas"]["Currency"];
                    method: string;
                    direction: "payin" | "payout";
                    /**
                     * @description Major units, at most 2 decimals
                     * @example 1500.5
                     */
                    min: number;
                    /**
                     * @description Major units, at most 2 decimals
                     * @example 1500.5
                     */
                    max: number;
                };
            };
        };
        responses: {
            /** @description The bounds now in force. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 200 */
                        code: string;
                        /** @example SUCCESS */
                        message: string;
                        data: {
                            currency: string;
                            method: string;
                            direction: string;
                            min: number;
                            max: number;
                        };
                    };
                };
            };
            /** @description The request was refused and changed nothing: INVALID_JSON, VALIDATION_FAILED (with data.errors), UNSUPPORTED_CURRENCY, UNSUPPORTED_METHOD. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: a valid operator bearer token is required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: no such merchant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR: nothing partial was stored. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAVAILABLE: shutting down or the database is unreachable; safe to retry. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    adminVerifyLedger: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The verdict and every violation found. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 200 */
                        code: string;
                        /** @example SUCCESS */
                        message: string;
                        data: {
                            ok: boolean;
                            violations: {
                                code: string;
                                subject: string;
                                detail: string;
                            }[];
                        };
                    };
                };
            };
            /** @description The request was refused and changed nothing: INVALID_JSON, VALIDATION_FAILED (with data.errors), UNSUPPORTED_CURRENCY, UNSUPPORTED_METHOD. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: a valid operator bearer token is required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR: nothing partial was stored. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAVAILABLE: shutting down or the database is unreachable; safe to retry. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    adminSettle: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description What was settled; more is true when another run has work left. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 200 */
                        code: string;
                        /** @example SUCCESS */
                        message: string;
                        data: {
                            settled: {
                                merchantId: string;
                                currency: string;
                                amount: number;
                                repaidCredit: number;
                            }[];
                            more: boolean;
                        };
                    };
                };
            };
            /** @description The request was refused and changed nothing: INVALID_JSON, VALIDATION_FAILED (with data.errors), UNSUPPORTED_CURRENCY, UNSUPPORTED_METHOD. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: a valid operator bearer token is required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR: nothing partial was stored. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAVAILABLE: shutting down or the database is unreachable; safe to retry. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    adminStuckPayouts: {
        parameters: {
            query?: {
                /** @description Unchanged for at least this long; default 900. */
                olderThanSeconds?: string & unknown;
                /** @description 1 to 500, default 100. */
                limit?: string & unknown;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The stuck payouts, oldest first. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 200 */
                        code: string;
                        /** @example SUCCESS */
                        message: string;
                        data: {
                            payouts: ({
                                transactionRef: string;
                                merchantId: string;
                                merchantRef: string;
                                status: string;
                                submitAttempts: number;
                                queryAttempts: number;
                                ageSeconds: number;
                            } & {
                                [key: string]: unknown;
                            })[];
                        };
                    };
                };
            };
            /** @description The request was refused and changed nothing: INVALID_JSON, VALIDATION_FAILED (with data.errors), UNSUPPORTED_CURRENCY, UNSUPPORTED_METHOD. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: a valid operator bearer token is required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR: nothing partial was stored. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAVAILABLE: shutting down or the database is unreachable; safe to retry. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    adminQueryPayout: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                ref: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The payout after the upstream's answer was applied. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 200 */
                        code: string;
                        /** @example SUCCESS */
                        message: string;
                        data: {
                            payout: {
                                transactionRef: string;
                                merchantId: string;
                                merchantRef: string;
                                status: string;
                                submitAttempts: number;
                                queryAttempts: number;
                                ageSeconds: number;
                            } & {
                                [key: string]: unknown;
                            };
                            upstream: null | ({
                                status: string;
                            } & {
                                [key: string]: unknown;
                            });
                            note?: string;
                        };
                    };
                };
            };
            /** @description The request was refused and changed nothing: INVALID_JSON, VALIDATION_FAILED (with data.errors), UNSUPPORTED_CURRENCY, UNSUPPORTED_METHOD. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: a valid operator bearer token is required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: no such payout. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR: nothing partial was stored. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAVAILABLE: shutting down or the database is unreachable; safe to retry. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    adminGetPayoutApproval: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The setting (thresholdAmount null: off). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 200 */
                        code: string;
                        /** @example SUCCESS */
                        message: string;
                        data: {
                            merchantId: string;
                            /** @description null: approval is off. */
                            thresholdAmount: {
                                /** @description Major units, at most 2 decimals: payouts of a larger amount wait for approval. */
                                INR?: number;
                                /** @description Major units, at most 2 decimals: payouts of a larger amount wait for approval. */
                                EGP?: number;
                                /** @description Major units, at most 2 decimals: payouts of a larger amount wait for approval. */
                                NGN?: number;
                                /** @description Major units, at most 2 decimals: payouts of a larger amount wait for approval. */
                                IDR?: number;
                            } | null;
                            timeoutSeconds: number;
                        };
                    };
                };
            };
            /** @description The request was refused and changed nothing: INVALID_JSON, VALIDATION_FAILED (with data.errors), UNSUPPORTED_CURRENCY, UNSUPPORTED_METHOD. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: a valid operator bearer token is required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR: nothing partial was stored. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAVAILABLE: shutting down or the database is unreachable; safe to retry. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    adminSetPayoutApproval: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Per currency; a currency left out or null needs no approval. null (or no currency) turns approval off. */
                    thresholdAmount: {
                        INR?: number | null;
                        EGP?: number | null;
                        NGN?: number | null;
                        IDR?: number | null;
                    } | null;
                    /** @description How long a payout waits before it fails with APPROVAL_EXPIRED; default 86400. */
                    timeoutSeconds?: number;
                };
            };
        };
        responses: {
            /** @description The setting afterwards. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 200 */
                        code: string;
                        /** @example SUCCESS */
                        message: string;
                        data: {
                            merchantId: string;
                            /** @description null: approval is off. */
                            thresholdAmount: {
                                /** @description Major units, at most 2 decimals: payouts of a larger amount wait for approval. */
                                INR?: number;
                                /** @description Major units, at most 2 decimals: payouts of a larger amount wait for approval. */
                                EGP?: number;
                                /** @description Major units, at most 2 decimals: payouts of a larger amount wait for approval. */
                                NGN?: number;
                                /** @description Major units, at most 2 decimals: payouts of a larger amount wait for approval. */
                                IDR?: number;
                            } | null;
                            timeoutSeconds: number;
                        };
                    };
                };
            };
            /** @description The request was refused and changed nothing: INVALID_JSON, VALIDATION_FAILED (with data.errors), UNSUPPORTED_CURRENCY, UNSUPPORTED_METHOD. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: a valid operator bearer token is required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: no such merchant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR: nothing partial was stored. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAVAILABLE: shutting down or the database is unreachable; safe to retry. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    adminRotateServiceKey: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The new current key (public half only). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 200 */
                        code: string;
                        /** @example SUCCESS */
                        message: string;
                        data: components["schemas"]["ServiceKeyEntry"];
                    };
                };
            };
            /** @description The request was refused and changed nothing: INVALID_JSON, VALIDATION_FAILED (with data.errors), UNSUPPORTED_CURRENCY, UNSUPPORTED_METHOD. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: a valid operator bearer token is required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description CONFLICT: another rotation happened at the same moment. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR: nothing partial was stored. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAVAILABLE: shutting down or the database is unreachable; safe to retry. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    adminListHeldMoney: {
        parameters: {
            query?: {
                merchantId?: string;
                status?: "open" | "returning" | "returned" | "credited";
                /** @description 1 to 200, default 50 */
                limit?: string & unknown;
                /** @description The payment's transactionRef */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of held items. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 200 */
                        code: string;
                        /** @example SUCCESS */
                        message: string;
                        data: {
                            items: {
                                transactionRef: string;
                                merchantId: string;
                                merchantRef: string;
                                currency: string;
                                method: string;
                                /** @description Expired or Failed: the payment is never resurrected */
                                paymentStatus: string;
                                /** @enum {string} */
                                reason: "late";
                                amountAsked: number;
                                amountHeld: number;
                                amountMismatch: boolean;
                                receivedAt: string;
                                status: "open" | "returning" | "returned" | "credited";
                                heldBecause: string | null;
                                resolvedBy: string | null;
                                resolvedAt: string | null;
                                note: string | null;
                                fee: number | null;
                                credited: number | null;
                                refundRef: string | null;
                            }[];
                            nextCursor: string | null;
                        };
                    };
                };
            };
            /** @description The request was refused and changed nothing: INVALID_JSON, VALIDATION_FAILED (with data.errors), UNSUPPORTED_CURRENCY, UNSUPPORTED_METHOD. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: a valid operator bearer token is required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR: nothing partial was stored. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAVAILABLE: shutting down or the database is unreachable; safe to retry. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    adminGetHeldMoney: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The payment's transactionRef */
                ref: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The held item. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 200 */
                        code: string;
                        /** @example SUCCESS */
                        message: string;
                        data: {
                            transactionRef: string;
                            merchantId: string;
                            merchantRef: string;
                            currency: string;
                            method: string;
                            /** @description Expired or Failed: the payment is never resurrected */
                            paymentStatus: string;
                            /** @enum {string} */
                            reason: "late";
                            amountAsked: number;
                            amountHeld: number;
                            amountMismatch: boolean;
                            receivedAt: string;
                            status: "open" | "returning" | "returned" | "credited";
                            heldBecause: string | null;
                            resolvedBy: string | null;
                            resolvedAt: string | null;
                            note: string | null;
                            fee: number | null;
                            credited: number | null;
                            refundRef: string | null;
                        };
                    };
                };
            };
            /** @description The request was refused and changed nothing: INVALID_JSON, VALIDATION_FAILED (with data.errors), UNSUPPORTED_CURRENCY, UNSUPPORTED_METHOD. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: a valid operator bearer token is required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: no held money for this transactionRef. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR: nothing partial was stored. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAVAILABLE: shutting down or the database is unreachable; safe to retry. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    adminReturnHeldMoney: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The payment's transactionRef */
                ref: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Why; kept with the item, in the journal entry and the audit log */
                    reason: string;
                };
            };
        };
        responses: {
            /** @description The item after the resolution. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 200 */
                        code: string;
                        /** @example SUCCESS */
                        message: string;
                        data: {
                            item: {
                                transactionRef: string;
                                merchantId: string;
                                merchantRef: string;
                                currency: string;
                                method: string;
                                /** @description Expired or Failed: the payment is never resurrected */
                                paymentStatus: string;
                                /** @enum {string} */
                                reason: "late";
                                amountAsked: number;
                                amountHeld: number;
                                amountMismatch: boolean;
                                receivedAt: string;
                                status: "open" | "returning" | "returned" | "credited";
                                heldBecause: string | null;
                                resolvedBy: string | null;
                                resolvedAt: string | null;
                                note: string | null;
                                fee: number | null;
                                credited: number | null;
                                refundRef: string | null;
                            };
                            /** @description true when the item was already resolved this way; nothing changed */
                            replayed: boolean;
                        };
                    };
                };
            };
            /** @description The request was refused and changed nothing: INVALID_JSON, VALIDATION_FAILED (with data.errors), UNSUPPORTED_CURRENCY, UNSUPPORTED_METHOD. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: a valid operator bearer token is required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: no held money for this transactionRef. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description CONFLICT: the item was already resolved the other way. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYMENT_NOT_REFUNDABLE: the channel cannot send this money back, or refused to. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR: nothing partial was stored. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAVAILABLE: the channel did not answer; the item stays returning and the call may be repeated. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    adminCreditHeldMoney: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The payment's transactionRef */
                ref: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Why; kept with the item, in the journal entry and the audit log */
                    reason: string;
                };
            };
        };
        responses: {
            /** @description The item after the resolution. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 200 */
                        code: string;
                        /** @example SUCCESS */
                        message: string;
                        data: {
                            item: {
                                transactionRef: string;
                                merchantId: string;
                                merchantRef: string;
                                currency: string;
                                method: string;
                                /** @description Expired or Failed: the payment is never resurrected */
                                paymentStatus: string;
                                /** @enum {string} */
                                reason: "late";
                                amountAsked: number;
                                amountHeld: number;
                                amountMismatch: boolean;
                                receivedAt: string;
                                status: "open" | "returning" | "returned" | "credited";
                                heldBecause: string | null;
                                resolvedBy: string | null;
                                resolvedAt: string | null;
                                note: string | null;
                                fee: number | null;
                                credited: number | null;
                                refundRef: string | null;
                            };
                            /** @description true when the item was already resolved this way; nothing changed */
                            replayed: boolean;
                        };
                    };
                };
            };
            /** @description The request was refused and changed nothing: INVALID_JSON, VALIDATION_FAILED (with data.errors), UNSUPPORTED_CURRENCY, UNSUPPORTED_METHOD. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: a valid operator bearer token is required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: no held money for this transactionRef. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description CONFLICT: the item was already resolved the other way. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYMENT_NOT_REFUNDABLE: the channel cannot send this money back, or refused to. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR: nothing partial was stored. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAVAILABLE: the channel did not answer; the item stays returning and the call may be repeated. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    adminListAudit: {
        parameters: {
            query?: {
                merchantId?: string;
                /** @example merchant.disable */
                action?: string & unknown;
                /**
                 * @description ISO-8601 time: entries at or after it
                 * @example 2025-06-01T00:00:00Z
                 */
                since?: string;
                /** @description 1 to 200, default 50 */
                limit?: string & unknown;
                /** @description nextCursor of the previous page */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of audit entries. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 200 */
                        code: string;
                        /** @example SUCCESS */
                        message: string;
                        data: {
                            items: {
                                id: string;
                                /**
                                 * @example admin
                                 * @example cli:ops
                                 * @example console:ops@example.com
                                 */
                                actor: string;
                                action: string;
                                target: string;
                                merchantId: string | null;
                                details: {
                                    [key: string]: unknown;
                                };
                                /** @description The client address of the action (operator API and console); null for the CLI and background jobs. */
                                address: string | null;
                                createdAt: string;
                            }[];
                            nextCursor: string | null;
                        };
                    };
                };
            };
            /** @description The request was refused and changed nothing: INVALID_JSON, VALIDATION_FAILED (with data.errors), UNSUPPORTED_CURRENCY, UNSUPPORTED_METHOD. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: a valid operator bearer token is required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR: nothing partial was stored. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAVAILABLE: shutting down or the database is unreachable; safe to retry. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    adminListConnectors: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The connectors the service ships. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 200 */
                        code: string;
                        /** @example SUCCESS */
                        message: string;
                        data: {
                            name: string;
                            displayName: string;
                            apiVersion: string;
                            baseUrl: string;
                            defaultBaseUrl: string;
                            /** @description Register <your public URL> + this path at the provider as the notification URL. */
                            callbackPath: string;
                            capabilities: {
                                currency: string;
                                direction: string;
                                method: string;
                                refunds?: boolean;
                            }[];
                            credentials: {
                                name: string;
                                description: string;
                                secret: boolean;
                                optional: boolean;
                                set: boolean;
                                /** @description Secrets: the last four characters only; identifiers: the value. */
                                hint: string | null;
                                updatedAt: string | null;
                            }[];
                            /** @description Every required credential is set, so routes can use it. */
                            ready: boolean;
                            missingCredentials: string[];
                        }[];
                    };
                };
            };
            /** @description The request was refused and changed nothing: INVALID_JSON, VALIDATION_FAILED (with data.errors), UNSUPPORTED_CURRENCY, UNSUPPORTED_METHOD. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: a valid operator bearer token is required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR: nothing partial was stored. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAVAILABLE: shutting down or the database is unreachable; safe to retry. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    adminSetConnectorCredentials: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The connector, e.g. xendit. */
                name: string & unknown;
            };
            cookie?: never;
        };
        /** @description Credential name to value; names not given keep their values. An empty string removes an optional credential. */
        requestBody: {
            content: {
                "application/json": {
                    [key: string]: string;
                };
            };
        };
        responses: {
            /** @description The connector with its credential state. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 200 */
                        code: string;
                        /** @example SUCCESS */
                        message: string;
                        data: {
                            name: string;
                            displayName: string;
                            apiVersion: string;
                            baseUrl: string;
                            defaultBaseUrl: string;
                            /** @description Register <your public URL> + this path at the provider as the notification URL. */
                            callbackPath: string;
                            capabilities: {
                                currency: string;
                                direction: string;
                                method: string;
                                refunds?: boolean;
                            }[];
                            credentials: {
                                name: string;
                                description: string;
                                secret: boolean;
                                optional: boolean;
                                set: boolean;
                                /** @description Secrets: the last four characters only; identifiers: the value. */
                                hint: string | null;
                                updatedAt: string | null;
                            }[];
                            /** @description Every required credential is set, so routes can use it. */
                            ready: boolean;
                            missingCredentials: string[];
                        };
                    };
                };
            };
            /** @description The request was refused and changed nothing: INVALID_JSON, VALIDATION_FAILED (with data.errors), UNSUPPORTED_CURRENCY, UNSUPPORTED_METHOD. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: a valid operator bearer token is required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: no such connector. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR: nothing partial was stored. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAVAILABLE: shutting down or the database is unreachable; safe to retry. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    adminSetConnectorBaseUrl: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The connector, e.g. xendit. */
                name: string & unknown;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    baseUrl: string | null;
                };
            };
        };
        responses: {
            /** @description The connector with its base URL. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 200 */
                        code: string;
                        /** @example SUCCESS */
                        message: string;
                        data: {
                            name: string;
                            displayName: string;
                            apiVersion: string;
                            baseUrl: string;
                            defaultBaseUrl: string;
                            /** @description Register <your public URL> + this path at the provider as the notification URL. */
                            callbackPath: string;
                            capabilities: {
                                currency: string;
                                direction: string;
                                method: string;
                                refunds?: boolean;
                            }[];
                            credentials: {
                                name: string;
                                description: string;
                                secret: boolean;
                                optional: boolean;
                                set: boolean;
                                /** @description Secrets: the last four characters only; identifiers: the value. */
                                hint: string | null;
                                updatedAt: string | null;
                            }[];
                            /** @description Every required credential is set, so routes can use it. */
                            ready: boolean;
                            missingCredentials: string[];
                        };
                    };
                };
            };
            /** @description The request was refused and changed nothing: INVALID_JSON, VALIDATION_FAILED (with data.errors), UNSUPPORTED_CURRENCY, UNSUPPORTED_METHOD. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: a valid operator bearer token is required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: no such connector. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR: nothing partial was stored. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAVAILABLE: shutting down or the database is unreachable; safe to retry. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    adminListRoutes: {
        parameters: {
            query?: {
                merchantId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The routes. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 200 */
                        code: string;
                        /** @example SUCCESS */
                        message: string;
                        data: {
                            /** @description null: the default for every live merchant. */
                            merchantId: string | null;
                            currency: string;
                            direction: string;
                            method: string;
                            connectors: string[];
                            updatedAt: string;
                        }[];
                    };
                };
            };
            /** @description The request was refused and changed nothing: INVALID_JSON, VALIDATION_FAILED (with data.errors), UNSUPPORTED_CURRENCY, UNSUPPORTED_METHOD. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: a valid operator bearer token is required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR: nothing partial was stored. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAVAILABLE: shutting down or the database is unreachable; safe to retry. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    adminSetRoute: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Omit for the default route of every live merchant. */
                    merchantId?: string;
                    /** @enum {string} */
                    currency: "INR" | "EGP" | "NGN" | "IDR";
                    /** @enum {string} */
                    direction: "payin" | "payout";
                    method: string & unknown;
                    /** @description In order: the first ready connector serves; a payout refused at submission moves to the next. Empty removes the route. */
                    connectors: (string & unknown)[];
                };
            };
        };
        responses: {
            /** @description The route now in force, or null once removed. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 200 */
                        code: string;
                        /** @example SUCCESS */
                        message: string;
                        data: {
                            /** @description null: the default for every live merchant. */
                            merchantId: string | null;
                            currency: string;
                            direction: string;
                            method: string;
                            connectors: string[];
                            updatedAt: string;
                        } | null;
                    };
                };
            };
            /** @description The request was refused and changed nothing: INVALID_JSON, VALIDATION_FAILED (with data.errors), UNSUPPORTED_CURRENCY, UNSUPPORTED_METHOD. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: a valid operator bearer token is required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: no such merchant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR: nothing partial was stored. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAVAILABLE: shutting down or the database is unreachable; safe to retry. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    adminGetPayment: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                ref: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The payment. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 200 */
                        code: string;
                        /** @example SUCCESS */
                        message: string;
                        data: {
                            transactionRef: string;
                            merchantId: string;
                            status: string;
                            /** @description The connector that serves the payment. */
                            channel: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description The request was refused and changed nothing: INVALID_JSON, VALIDATION_FAILED (with data.errors), UNSUPPORTED_CURRENCY, UNSUPPORTED_METHOD. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: a valid operator bearer token is required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: no such payment. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR: nothing partial was stored. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAVAILABLE: shutting down or the database is unreachable; safe to retry. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    adminGetPayout: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                ref: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The payout. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 200 */
                        code: string;
                        /** @example SUCCESS */
                        message: string;
                        data: {
                            transactionRef: string;
                            merchantId: string;
                            status: string;
                            /** @description The connector that serves the payout. */
                            channel: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description The request was refused and changed nothing: INVALID_JSON, VALIDATION_FAILED (with data.errors), UNSUPPORTED_CURRENCY, UNSUPPORTED_METHOD. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: a valid operator bearer token is required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: no such payout. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR: nothing partial was stored. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAVAILABLE: shutting down or the database is unreachable; safe to retry. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    adminImportStatement: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @example simulator */
                    connector: string;
                    /** @description the statement's UTC day */
                    day: string & unknown;
                    fileName?: string;
                    /** @description the file's text, in the connector's statement format */
                    content: string;
                };
            };
        };
        responses: {
            /** @description The run. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 200 */
                        code: string;
                        /** @example SUCCESS */
                        message: string;
                        data: {
                            run: {
                                id: string;
                                connector: string;
                                /** @example 2026-11-22 */
                                day: string;
                                fileName: string;
                                /** @description sha256 hex of the file: the same file imported again answers this run */
                                checksum: string;
                                source: "import" | "fetch";
                                periodFrom: string;
                                periodTo: string;
                                /** @description kinds of our records the statement must list (missing_theirs); empty: none */
                                expects: string[];
                                importedAt: string;
                                actor: string;
                                /** @description the statement's lines */
                                lines: number;
                                counts: {
                                    matched: number;
                                    amount_mismatch: number;
                                    status_mismatch: number;
                                    missing_ours: number;
                                    missing_theirs: number;
                                };
                                /** @description lines not matched and not yet resolved */
                                unresolved: number;
                            };
                            replayed: boolean;
                        };
                    };
                };
            };
            /** @description The request was refused and changed nothing: INVALID_JSON, VALIDATION_FAILED (with data.errors), UNSUPPORTED_CURRENCY, UNSUPPORTED_METHOD. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: a valid operator bearer token is required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: the connector offers no statement. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR: nothing partial was stored. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAVAILABLE: shutting down or the database is unreachable; safe to retry. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    adminImportStatementCsv: {
        parameters: {
            query: {
                /** @example simulator */
                connector: string;
                /** @description the statement's UTC day */
                day: string & unknown;
                fileName?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description the file's text */
        requestBody: {
            content: {
                "text/csv": string;
            };
        };
        responses: {
            /** @description The run. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 200 */
                        code: string;
                        /** @example SUCCESS */
                        message: string;
                        data: {
                            run: {
                                id: string;
                                connector: string;
                                /** @example 2026-11-22 */
                                day: string;
                                fileName: string;
                                /** @description sha256 hex of the file: the same file imported again answers this run */
                                checksum: string;
                                source: "import" | "fetch";
                                periodFrom: string;
                                periodTo: string;
                                /** @description kinds of our records the statement must list (missing_theirs); empty: none */
                                expects: string[];
                                importedAt: string;
                                actor: string;
                                /** @description the statement's lines */
                                lines: number;
                                counts: {
                                    matched: number;
                                    amount_mismatch: number;
                                    status_mismatch: number;
                                    missing_ours: number;
                                    missing_theirs: number;
                                };
                                /** @description lines not matched and not yet resolved */
                                unresolved: number;
                            };
                            replayed: boolean;
                        };
                    };
                };
            };
            /** @description The request was refused and changed nothing: INVALID_JSON, VALIDATION_FAILED (with data.errors), UNSUPPORTED_CURRENCY, UNSUPPORTED_METHOD. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: a valid operator bearer token is required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: the connector offers no statement. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR: nothing partial was stored. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAVAILABLE: shutting down or the database is unreachable; safe to retry. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    adminFetchStatement: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    connector: string;
                    /** @description the statement's UTC day */
                    day: string & unknown;
                };
            };
        };
        responses: {
            /** @description The run. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 200 */
                        code: string;
                        /** @example SUCCESS */
                        message: string;
                        data: {
                            run: {
                                id: string;
                                connector: string;
                                /** @example 2026-11-22 */
                                day: string;
                                fileName: string;
                                /** @description sha256 hex of the file: the same file imported again answers this run */
                                checksum: string;
                                source: "import" | "fetch";
                                periodFrom: string;
                                periodTo: string;
                                /** @description kinds of our records the statement must list (missing_theirs); empty: none */
                                expects: string[];
                                importedAt: string;
                                actor: string;
                                /** @description the statement's lines */
                                lines: number;
                                counts: {
                                    matched: number;
                                    amount_mismatch: number;
                                    status_mismatch: number;
                                    missing_ours: number;
                                    missing_theirs: number;
                                };
                                /** @description lines not matched and not yet resolved */
                                unresolved: number;
                            };
                            replayed: boolean;
                        };
                    };
                };
            };
            /** @description The request was refused and changed nothing: INVALID_JSON, VALIDATION_FAILED (with data.errors), UNSUPPORTED_CURRENCY, UNSUPPORTED_METHOD. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: a valid operator bearer token is required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: the connector has no statement API, or its credentials are not set. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR: nothing partial was stored. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAVAILABLE: the provider did not answer; repeat the call later. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    adminListReconciliationRuns: {
        parameters: {
            query?: {
                connector?: string;
                /** @description 1 to 200, default 50 */
                limit?: string & unknown;
                /** @description nextCursor of the previous page */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of runs. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 200 */
                        code: string;
                        /** @example SUCCESS */
                        message: string;
                        data: {
                            items: {
                                id: string;
                                connector: string;
                                /** @example 2026-11-22 */
                                day: string;
                                fileName: string;
                                /** @description sha256 hex of the file: the same file imported again answers this run */
                                checksum: string;
                                source: "import" | "fetch";
                                periodFrom: string;
                                periodTo: string;
                                /** @description kinds of our records the statement must list (missing_theirs); empty: none */
                                expects: string[];
                                importedAt: string;
                                actor: string;
                                /** @description the statement's lines */
                                lines: number;
                                counts: {
                                    matched: number;
                                    amount_mismatch: number;
                                    status_mismatch: number;
                                    missing_ours: number;
                                    missing_theirs: number;
                                };
                                /** @description lines not matched and not yet resolved */
                                unresolved: number;
                            }[];
                            nextCursor: string | null;
                        };
                    };
                };
            };
            /** @description The request was refused and changed nothing: INVALID_JSON, VALIDATION_FAILED (with data.errors), UNSUPPORTED_CURRENCY, UNSUPPORTED_METHOD. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: a valid operator bearer token is required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR: nothing partial was stored. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAVAILABLE: shutting down or the database is unreachable; safe to retry. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    adminGetReconciliationRun: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The run. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 200 */
                        code: string;
                        /** @example SUCCESS */
                        message: string;
                        data: {
                            id: string;
                            connector: string;
                            /** @example 2026-11-22 */
                            day: string;
                            fileName: string;
                            /** @description sha256 hex of the file: the same file imported again answers this run */
                            checksum: string;
                            source: "import" | "fetch";
                            periodFrom: string;
                            periodTo: string;
                            /** @description kinds of our records the statement must list (missing_theirs); empty: none */
                            expects: string[];
                            importedAt: string;
                            actor: string;
                            /** @description the statement's lines */
                            lines: number;
                            counts: {
                                matched: number;
                                amount_mismatch: number;
                                status_mismatch: number;
                                missing_ours: number;
                                missing_theirs: number;
                            };
                            /** @description lines not matched and not yet resolved */
                            unresolved: number;
                        };
                    };
                };
            };
            /** @description The request was refused and changed nothing: INVALID_JSON, VALIDATION_FAILED (with data.errors), UNSUPPORTED_CURRENCY, UNSUPPORTED_METHOD. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: a valid operator bearer token is required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: no such run. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR: nothing partial was stored. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAVAILABLE: shutting down or the database is unreachable; safe to retry. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    adminListReconciliationLines: {
        parameters: {
            query?: {
                outcome?: "matched" | "amount_mismatch" | "status_mismatch" | "missing_ours" | "missing_theirs";
                unresolved?: "true" | "false";
                /** @description 1 to 200, default 50 */
                limit?: string & unknown;
                /** @description nextCursor of the previous page */
                cursor?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of lines. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 200 */
                        code: string;
                        /** @example SUCCESS */
                        message: string;
                        data: {
                            items: {
                                id: string;
                                runId: string;
                                lineNumber: number | null;
                                outcome: "matched" | "amount_mismatch" | "status_mismatch" | "missing_ours" | "missing_theirs";
                                /**
                                 * @example payment
                                 * @example payout
                                 * @example refund
                                 */
                                kind: string;
                                upstreamRef: string | null;
                                transactionRef: string | null;
                                merchantId: string | null;
                                theirs: {
                                    currency: string;
                                    /** @description minor units, decimal string */
                                    amountMinor: string;
                                    status: string;
                                    mappedStatus: string;
                                } | null;
                                ours: {
                                    currency: string;
                                    /** @description minor units, decimal string */
                                    amountMinor: string;
                                    status: string;
                                    mappedStatus: string | null;
                                } | null;
                                resolvedAt: string | null;
                                resolvedBy: string | null;
                                reason: string | null;
                            }[];
                            nextCursor: string | null;
                        };
                    };
                };
            };
            /** @description The request was refused and changed nothing: INVALID_JSON, VALIDATION_FAILED (with data.errors), UNSUPPORTED_CURRENCY, UNSUPPORTED_METHOD. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: a valid operator bearer token is required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: no such run. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR: nothing partial was stored. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAVAILABLE: shutting down or the database is unreachable; safe to retry. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    adminResolveReconciliationLine: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Why the difference is settled; kept with the line and in the audit log */
                    reason: string;
                };
            };
        };
        responses: {
            /** @description The line. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 200 */
                        code: string;
                        /** @example SUCCESS */
                        message: string;
                        data: {
                            line: {
                                id: string;
                                runId: string;
                                lineNumber: number | null;
                                outcome: "matched" | "amount_mismatch" | "status_mismatch" | "missing_ours" | "missing_theirs";
                                /**
                                 * @example payment
                                 * @example payout
                                 * @example refund
                                 */
                                kind: string;
                                upstreamRef: string | null;
                                transactionRef: string | null;
                                merchantId: string | null;
                                theirs: {
                                    currency: string;
                                    /** @description minor units, decimal string */
                                    amountMinor: string;
                                    status: string;
                                    mappedStatus: string;
                                } | null;
                                ours: {
                                    currency: string;
                                    /** @description minor units, decimal string */
                                    amountMinor: string;
                                    status: string;
                                    mappedStatus: string | null;
                                } | null;
                                resolvedAt: string | null;
                                resolvedBy: string | null;
                                reason: string | null;
                            };
                            /** @description true: already resolved with this reason; nothing changed */
                            replayed: boolean;
                        };
                    };
                };
            };
            /** @description The request was refused and changed nothing: INVALID_JSON, VALIDATION_FAILED (with data.errors), UNSUPPORTED_CURRENCY, UNSUPPORTED_METHOD. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: a valid operator bearer token is required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: no such line. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description CONFLICT: the line matched (nothing to resolve) or was resolved with another reason. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR: nothing partial was stored. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAVAILABLE: shutting down or the database is unreachable; safe to retry. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    servicePublicKey: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The public key; no signature needed to fetch it. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 200 */
                        code: string;
                        /** @example SUCCESS */
                        message: string;
                        data: components["schemas"]["PublicKey"];
                    };
                };
            };
        };
    };
    reportDownload: {
        parameters: {
            query?: {
                expires?: string;
                sig?: string;
            };
            header?: never;
            path: {
                reportId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The CSV: a header row, then one row per record (RFC 4180). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/csv": string;
                };
            };
            /** @description NOT_FOUND: the link is wrong or expired, or the report is not (or no longer) ready. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    health: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Alive. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example ok */
                        status: string;
                    };
                };
            };
        };
    };
    readiness: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Ready to serve. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example ready */
                        status: string;
                        /** @example sqlite */
                        store: string;
                    };
                };
            };
            /** @description Not ready: shutting down or the database is unreachable. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example ready */
                        status: string;
                        /** @example sqlite */
                        store: string;
                    };
                };
            };
        };
    };
    metrics: {
        parameters: {
            query?: {
                "name[]"?: string | string[];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Prometheus text exposition format. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": string;
                };
            };
        };
    };
    paymentSucceededWebhook: {
        parameters: {
            query?: never;
            header: {
                /** @description Your merchant id. */
                MerchantID: string;
                /** @description Unix seconds when this attempt was signed. */
                Timestamp: string;
                /** @description base64 RSA-SHA512 signature by the service's key (GET /v1/public-key) of hex(SHA512(rawBody)) + Timestamp. */
                Signature: string;
                /** @description The id of the service key that made Signature, as GET /v1/public-key lists it (keys[].keyId); refetch the list on an id you do not know. */
                "Signature-Key-Id": string;
                /** @description The event id (event.id in the body); deduplicate on it. */
                "webhook-id": string;
                /** @description The same Unix seconds as Timestamp. */
                "webhook-timestamp": string;
                /** @description v1, + base64 HMAC-SHA256 with your whsec_ secret of webhook-id.webhook-timestamp.rawBody (Standard Webhooks). After a secret rotation, for the overlap, two space-separated entries: the new secret's, then the replaced one's; either verifying is enough. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PaymentWebhook"];
            };
        };
        responses: {
            /** @description Acknowledged: any 2xx within 15 seconds; the body is ignored (SUCCESS as plain text is fine). */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else, or no answer within 15 seconds: retried with backoff for about 28 hours, then marked failed. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    paymentFailedWebhook: {
        parameters: {
            query?: never;
            header: {
                /** @description Your merchant id. */
                MerchantID: string;
                /** @description Unix seconds when this attempt was signed. */
                Timestamp: string;
                /** @description base64 RSA-SHA512 signature by the service's key (GET /v1/public-key) of hex(SHA512(rawBody)) + Timestamp. */
                Signature: string;
                /** @description The id of the service key that made Signature, as GET /v1/public-key lists it (keys[].keyId); refetch the list on an id you do not know. */
                "Signature-Key-Id": string;
                /** @description The event id (event.id in the body); deduplicate on it. */
                "webhook-id": string;
                /** @description The same Unix seconds as Timestamp. */
                "webhook-timestamp": string;
                /** @description v1, + base64 HMAC-SHA256 with your whsec_ secret of webhook-id.webhook-timestamp.rawBody (Standard Webhooks). After a secret rotation, for the overlap, two space-separated entries: the new secret's, then the replaced one's; either verifying is enough. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PaymentWebhook"];
            };
        };
        responses: {
            /** @description Acknowledged: any 2xx within 15 seconds; the body is ignored (SUCCESS as plain text is fine). */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else, or no answer within 15 seconds: retried with backoff for about 28 hours, then marked failed. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    paymentExpiredWebhook: {
        parameters: {
            query?: never;
            header: {
                /** @description Your merchant id. */
                MerchantID: string;
                /** @description Unix seconds when this attempt was signed. */
                Timestamp: string;
                /** @description base64 RSA-SHA512 signature by the service's key (GET /v1/public-key) of hex(SHA512(rawBody)) + Timestamp. */
                Signature: string;
                /** @description The id of the service key that made Signature, as GET /v1/public-key lists it (keys[].keyId); refetch the list on an id you do not know. */
                "Signature-Key-Id": string;
                /** @description The event id (event.id in the body); deduplicate on it. */
                "webhook-id": string;
                /** @description The same Unix seconds as Timestamp. */
                "webhook-timestamp": string;
                /** @description v1, + base64 HMAC-SHA256 with your whsec_ secret of webhook-id.webhook-timestamp.rawBody (Standard Webhooks). After a secret rotation, for the overlap, two space-separated entries: the new secret's, then the replaced one's; either verifying is enough. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PaymentWebhook"];
            };
        };
        responses: {
            /** @description Acknowledged: any 2xx within 15 seconds; the body is ignored (SUCCESS as plain text is fine). */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else, or no answer within 15 seconds: retried with backoff for about 28 hours, then marked failed. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    paymentRefundedWebhook: {
        parameters: {
            query?: never;
            header: {
                /** @description Your merchant id. */
                MerchantID: string;
                /** @description Unix seconds when this attempt was signed. */
                Timestamp: string;
                /** @description base64 RSA-SHA512 signature by the service's key (GET /v1/public-key) of hex(SHA512(rawBody)) + Timestamp. */
                Signature: string;
                /** @description The id of the service key that made Signature, as GET /v1/public-key lists it (keys[].keyId); refetch the list on an id you do not know. */
                "Signature-Key-Id": string;
                /** @description The event id (event.id in the body); deduplicate on it. */
                "webhook-id": string;
                /** @description The same Unix seconds as Timestamp. */
                "webhook-timestamp": string;
                /** @description v1, + base64 HMAC-SHA256 with your whsec_ secret of webhook-id.webhook-timestamp.rawBody (Standard Webhooks). After a secret rotation, for the overlap, two space-separated entries: the new secret's, then the replaced one's; either verifying is enough. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PaymentWebhook"];
            };
        };
        responses: {
            /** @description Acknowledged: any 2xx within 15 seconds; the body is ignored (SUCCESS as plain text is fine). */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else, or no answer within 15 seconds: retried with backoff for about 28 hours, then marked failed. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    paymentLate_creditedWebhook: {
        parameters: {
            query?: never;
            header: {
                /** @description Your merchant id. */
                MerchantID: string;
                /** @description Unix seconds when this attempt was signed. */
                Timestamp: string;
                /** @description base64 RSA-SHA512 signature by the service's key (GET /v1/public-key) of hex(SHA512(rawBody)) + Timestamp. */
                Signature: string;
                /** @description The id of the service key that made Signature, as GET /v1/public-key lists it (keys[].keyId); refetch the list on an id you do not know. */
                "Signature-Key-Id": string;
                /** @description The event id (event.id in the body); deduplicate on it. */
                "webhook-id": string;
                /** @description The same Unix seconds as Timestamp. */
                "webhook-timestamp": string;
                /** @description v1, + base64 HMAC-SHA256 with your whsec_ secret of webhook-id.webhook-timestamp.rawBody (Standard Webhooks). After a secret rotation, for the overlap, two space-separated entries: the new secret's, then the replaced one's; either verifying is enough. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PaymentWebhook"];
            };
        };
        responses: {
            /** @description Acknowledged: any 2xx within 15 seconds; the body is ignored (SUCCESS as plain text is fine). */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else, or no answer within 15 seconds: retried with backoff for about 28 hours, then marked failed. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    payoutSucceededWebhook: {
        parameters: {
            query?: never;
            header: {
                /** @description Your merchant id. */
                MerchantID: string;
                /** @description Unix seconds when this attempt was signed. */
                Timestamp: string;
                /** @description base64 RSA-SHA512 signature by the service's key (GET /v1/public-key) of hex(SHA512(rawBody)) + Timestamp. */
                Signature: string;
                /** @description The id of the service key that made Signature, as GET /v1/public-key lists it (keys[].keyId); refetch the list on an id you do not know. */
                "Signature-Key-Id": string;
                /** @description The event id (event.id in the body); deduplicate on it. */
                "webhook-id": string;
                /** @description The same Unix seconds as Timestamp. */
                "webhook-timestamp": string;
                /** @description v1, + base64 HMAC-SHA256 with your whsec_ secret of webhook-id.webhook-timestamp.rawBody (Standard Webhooks). After a secret rotation, for the overlap, two space-separated entries: the new secret's, then the replaced one's; either verifying is enough. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PayoutWebhook"];
            };
        };
        responses: {
            /** @description Acknowledged: any 2xx within 15 seconds; the body is ignored (SUCCESS as plain text is fine). */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else, or no answer within 15 seconds: retried with backoff for about 28 hours, then marked failed. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    payoutFailedWebhook: {
        parameters: {
            query?: never;
            header: {
                /** @description Your merchant id. */
                MerchantID: string;
                /** @description Unix seconds when this attempt was signed. */
                Timestamp: string;
                /** @description base64 RSA-SHA512 signature by the service's key (GET /v1/public-key) of hex(SHA512(rawBody)) + Timestamp. */
                Signature: string;
                /** @description The id of the service key that made Signature, as GET /v1/public-key lists it (keys[].keyId); refetch the list on an id you do not know. */
                "Signature-Key-Id": string;
                /** @description The event id (event.id in the body); deduplicate on it. */
                "webhook-id": string;
                /** @description The same Unix seconds as Timestamp. */
                "webhook-timestamp": string;
                /** @description v1, + base64 HMAC-SHA256 with your whsec_ secret of webhook-id.webhook-timestamp.rawBody (Standard Webhooks). After a secret rotation, for the overlap, two space-separated entries: the new secret's, then the replaced one's; either verifying is enough. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PayoutWebhook"];
            };
        };
        responses: {
            /** @description Acknowledged: any 2xx within 15 seconds; the body is ignored (SUCCESS as plain text is fine). */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else, or no answer within 15 seconds: retried with backoff for about 28 hours, then marked failed. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    payoutBatch_completedWebhook: {
        parameters: {
            query?: never;
            header: {
                /** @description Your merchant id. */
                MerchantID: string;
                /** @description Unix seconds when this attempt was signed. */
                Timestamp: string;
                /** @description base64 RSA-SHA512 signature by the service's key (GET /v1/public-key) of hex(SHA512(rawBody)) + Timestamp. */
                Signature: string;
                /** @description The id of the service key that made Signature, as GET /v1/public-key lists it (keys[].keyId); refetch the list on an id you do not know. */
                "Signature-Key-Id": string;
                /** @description The event id (event.id in the body); deduplicate on it. */
                "webhook-id": string;
                /** @description The same Unix seconds as Timestamp. */
                "webhook-timestamp": string;
                /** @description v1, + base64 HMAC-SHA256 with your whsec_ secret of webhook-id.webhook-timestamp.rawBody (Standard Webhooks). After a secret rotation, for the overlap, two space-separated entries: the new secret's, then the replaced one's; either verifying is enough. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PayoutBatchWebhook"];
            };
        };
        responses: {
            /** @description Acknowledged: any 2xx within 15 seconds; the body is ignored (SUCCESS as plain text is fine). */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else, or no answer within 15 seconds: retried with backoff for about 28 hours, then marked failed. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    payoutPending_approvalWebhook: {
        parameters: {
            query?: never;
            header: {
                /** @description Your merchant id. */
                MerchantID: string;
                /** @description Unix seconds when this attempt was signed. */
                Timestamp: string;
                /** @description base64 RSA-SHA512 signature by the service's key (GET /v1/public-key) of hex(SHA512(rawBody)) + Timestamp. */
                Signature: string;
                /** @description The id of the service key that made Signature, as GET /v1/public-key lists it (keys[].keyId); refetch the list on an id you do not know. */
                "Signature-Key-Id": string;
                /** @description The event id (event.id in the body); deduplicate on it. */
                "webhook-id": string;
                /** @description The same Unix seconds as Timestamp. */
                "webhook-timestamp": string;
                /** @description v1, + base64 HMAC-SHA256 with your whsec_ secret of webhook-id.webhook-timestamp.rawBody (Standard Webhooks). After a secret rotation, for the overlap, two space-separated entries: the new secret's, then the replaced one's; either verifying is enough. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PayoutWebhook"];
            };
        };
        responses: {
            /** @description Acknowledged: any 2xx within 15 seconds; the body is ignored (SUCCESS as plain text is fine). */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else, or no answer within 15 seconds: retried with backoff for about 28 hours, then marked failed. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
}
