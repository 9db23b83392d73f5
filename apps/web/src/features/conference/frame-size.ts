/** The meeting frame's size: the room's pages and the whiteboard page lay themselves out by it. */
export const FRAME_WIDTH = 1100;
export const FRAME_HEIGHT = 580;
export const GUEST_FRAME_HEIGHT = 540;
