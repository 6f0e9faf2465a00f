/**
 * Files known to come with an image, where a server serves them and an e2e spec changes them
 * (`mv /usr/local/apache2/htdocs/index.html /tmp/` breaks a StatefulSet pod's readiness probe):
 * httpd's document root holds Apache's default page; the update demo's images (agnhost with a
 * picture, served by test-webserver) carry /data.json naming it. Any other file of any image
 * stays unknowable.
 */
import { imageName } from './program.js';

/** Apache httpd's document root in the official image. */
export const httpdDocumentRoot = '/usr/local/apache2/htdocs';

export function imageFiles(image: string): Map<string, string> {
  if (imageName(image) === 'httpd') {
    return new Map([[`${httpdDocumentRoot}/index.html`, '<html><body><h1>It works!</h1></body></html>\n']]);
  }
  const name = imageName(image);
  if (name === 'nautilus' || name === 'kitten') {
    return new Map([['/data.json', `{\n  "image": "${name}.jpg"\n}\n`]]);
  }
  return new Map();
}
