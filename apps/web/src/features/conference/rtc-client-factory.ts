import { createContext } from 'react';
import { type CreateRtcClient, createRtcClient } from './rtc-client';

/** Which RTC client the room uses (tests may provide another). */
export const RtcClientFactory = createContext<CreateRtcClient>(createRtcClient);
