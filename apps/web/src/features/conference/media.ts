import { useCallback, useEffect, useRef, useState } from 'react';

export interface DeviceOption {
  value: string;
  label: string;
}

/** The camera and microphone of the page: device lists, the chosen devices and their stream. */
export function useLocalMedia() {
  const [stream, setStream] = useState<MediaStream | null>(null);
  const [cameras, setCameras] = useState<DeviceOption[]>([]);
  const [microphones, setMicrophones] = useState<DeviceOption[]>([]);
  const [cameraId, setCameraId] = useState<string | null>(null);
  const [microphoneId, setMicrophoneId] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const current = useRef<MediaStream | null>(null);

  const supported = typeof navigator !== 'undefined' && !!navigator.mediaDevices?.getUserMedia;

  const open = useCallback(async () => {
    if (!supported) {
      setError('This browser gives no access to a camera or microphone; you can still join and listen.');
      return;
    }
    try {
      const next = await navigator.mediaDevices.getUserMedia({
        audio: microphoneId ? { deviceId: { exact: microphoneId } } : true,
        video: cameraId ? { deviceId: { exact: cameraId } } : { width: 640, height: 360 },
      });
      for (const t of current.current?.getTracks() ?? []) t.stop();
      current.current = next;
      setStream(next);
      setError(null);
      const devices = await navigator.mediaDevices.enumerateDevices();
      const list = (kind: MediaDeviceKind, stem: string) =>
        devices
          .filter((d) => d.kind === kind)
          .map((d, i) => ({ value: d.deviceId || `${kind}-${i}`, label: d.label || `${stem} ${i + 1}` }));
      setCameras(list('videoinput', 'Camera'));
      setMicrophones(list('audioinput', 'Microphone'));
    } catch {
      setError('The camera or microphone could not be opened; you can still join and listen.');
    }
  }, [supported, cameraId, microphoneId]);

  useEffect(() => {
    void open();
  }, [open]);

  useEffect(
    () => () => {
      for (const t of current.current?.getTracks() ?? []) t.stop();
    },
    [],
  );

  return { stream, cameras, microphones, cameraId, setCameraId, microphoneId, setMicrophoneId, error };
}
